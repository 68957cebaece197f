// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl info: what the loaded module is and can do (KSTATS_IOC_INFO),
 * whether the kernel is locked down, and the device's path and rights.
 * Without the module (never loaded for this): whether kstats.ko is
 * installed for the running kernel, what the kernel's config offers
 * kstats, and what the lockdown state allows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "json.h"
#include "text.h"

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static error_t info_parse(int key, char *arg, struct argp_state *state)
{
	(void)state;
	if (key == ARGP_KEY_ARG) {
		ks_usage("info takes no arguments ('%s')", arg);
		return EINVAL;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp info_argp = {
	NULL, info_parse, NULL,
	"Shows the module and ABI versions, what the module supports (commands, "
	"tracing mechanisms), the kernel's lockdown state, and the device's path "
	"and permissions; without the module loaded, whether it is installed and "
	"what this kernel offers it (it does not load it).",
	children, NULL, NULL
};

/* By bit number (KSTATS_FEAT_*); a bit this kstatsctl does not know: NULL. */
static const char *const feature_names[] = {
	"create", "delete", "list", "control", "snapshot", "record", "trace", "outliers",
	"split", "self", "keys", "cgroup", "key-values", "expr", "uprobe", "usdt",
	"uprobe-expr", "task-keys", "comm-key", "matched", "stack-key", "uprobe-split",
	"uprobe-outliers", "uprobe-cost", "uprobe-stack", "usdt-expr", "uprobe-loads", "group",
};

static const char *const mech_names[] = {
	[KSTATS_MECH_FPROBE] = "fprobe", [KSTATS_MECH_KRETPROBE] = "kretprobe",
	[KSTATS_MECH_KPROBE] = "kprobe", [KSTATS_MECH_TRACEPOINT] = "tracepoint",
	[KSTATS_MECH_UPROBE] = "uprobe",
};

/*
 * "label        value", the value's words wrapped under it within the
 * terminal's width (an install hint or a config line is longer than 80).
 */
static void __attribute__((format(printf, 2, 3))) field(const char *label, const char *fmt, ...)
{
	char text[2048], start[16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(start, sizeof(start), "%-12s ", label);
	ks_print_wrapped(stdout, start, "             ", text);
}

static void mode_string(char *buf, mode_t m)
{
	const char *rwx = "rwxrwxrwx";
	int i;

	buf[0] = S_ISCHR(m) ? 'c' : S_ISREG(m) ? '-' : '?';
	for (i = 0; i < 9; i++)
		buf[i + 1] = m & (1 << (8 - i)) ? rwx[i] : '-';
	buf[10] = '\0';
}

/* JSON's "kstatsctl_version" and "kernel", then "module" (to be filled). */
static struct json *info_doc(const char *release)
{
	struct json *j = json_doc("info");

	json_kstr(j, "kstatsctl_version", KSTATS_VERSION);
	json_kstr(j, "kernel", release);
	json_key(j, "module");
	return j;
}

static void json_lockdown(struct json *j, const char *mode, bool tracing_blocked)
{
	json_key(j, "lockdown");
	json_obj(j);
	json_kstr(j, "mode", mode ? mode : "unknown");
	json_kbool(j, "tracing_blocked", tracing_blocked);
	json_obj_end(j);
}

/* What kstats uses from the kernel's config, and what for. */
static const char *const config_keys[][2] = {
	{ "CONFIG_MODULES", "loading kstats at all" },
	{ "CONFIG_KPROBES", "tracing (kprobes)" },
	{ "CONFIG_KRETPROBES", "tracing functions (kretprobe)" },
	{ "CONFIG_FPROBE", "tracing functions (fprobe, faster)" },
	{ "CONFIG_TRACEPOINTS", "tracing tracepoint pairs" },
	{ "CONFIG_UPROBES", "tracing user-space functions" },
	{ "CONFIG_DEBUG_FS", "the text views in /sys/kernel/debug/kstats" },
	{ "CONFIG_MODULE_SIG_FORCE", "only signed modules load (then sign kstats.ko)" },
};

/* @key's value in /boot/config-RELEASE: "y", "m", "n" (not set), or NULL. */
static char *config_value(FILE *f, const char *key, char *buf, size_t len)
{
	char line[256];
	size_t n = strlen(key);

	if (!f)
		return NULL;
	rewind(f);
	snprintf(buf, len, "n");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == '=') {
			snprintf(buf, len, "%s", line + n + 1);
			buf[strcspn(buf, "\n")] = '\0';
		}
	return buf;
}

static int info_unloaded(void)
{
	char path[4096], ver[64], lock[64], cfgpath[300], v[64], t[4 * 4096 + 1];
	const char *why = NULL;
	enum ks_installed installed = ks_module_file(path, sizeof(path), ver, sizeof(ver),
						     &why);
	const char *lockmode = ks_lockdown_mode(lock, sizeof(lock));
	struct utsname un;
	FILE *cfg;
	size_t i;

	uname(&un);
	snprintf(cfgpath, sizeof(cfgpath), "/boot/config-%s", un.release);
	cfg = fopen(cfgpath, "re");
	if (opts.json) {
		struct json *j = info_doc(un.release);

		json_null(j);
		json_key(j, "installed");
		if (installed == KS_INSTALLED) {
			json_obj(j);
			json_kstr(j, "path", path);
			json_kstr(j, "version", ver);
			json_obj_end(j);
		} else {
			json_null(j);
		}
		if (installed == KS_INSTALLED_UNKNOWN)
			json_kstr(j, "installed_unknown", why);
		json_key(j, "kernel_config");
		if (cfg) {
			json_obj(j);
			for (i = 0; i < ARRAY_SIZE(config_keys); i++)
				json_kstr(j, config_keys[i][0],
					  config_value(cfg, config_keys[i][0], v, sizeof(v)));
			json_obj_end(j);
		} else {
			json_null(j);
		}
		json_lockdown(j, lockmode, lockmode && !strcmp(lockmode, "confidentiality"));
		json_key(j, "device");
		json_null(j);
		json_obj_end(j);
		json_end(j);
		if (cfg)
			fclose(cfg);
		return 0;
	}
	printf("kstatsctl    %s (ABI %u)\n", KSTATS_VERSION, KSTATS_ABI_VERSION);
	if (installed == KS_INSTALLED)
		field("module", "not loaded; installed: %s, version %s ('sudo modprobe "
		      "kstats', or any command as root, loads it)",
		      ks_text(t, sizeof(t), path), ks_text(v, sizeof(v), ver));
	else if (installed == KS_INSTALLED_UNKNOWN)
		field("module", "not loaded; whether it is installed cannot be told: %s "
		      "(install libkmod2, kmod's library)", ks_text(t, sizeof(t), why));
	else
		field("module", "not loaded, and not installed for this kernel (the "
		      "kstats-dkms package, or 'dkms install' from the source tree)");
	printf("kernel       %s\n", ks_text(t, sizeof(t), un.release));
	printf("lockdown     %s%s\n", lockmode ? lockmode : "unknown",
	       !lockmode || !strcmp(lockmode, "none") ? "" :
	       !strcmp(lockmode, "confidentiality") ?
	       " (tracing blocked; only signed modules load)" : " (only signed modules load)");
	if (!cfg) {
		field("config", "%s not readable: what the kernel offers is unknown",
		      cfgpath);
	} else {
		for (i = 0; i < ARRAY_SIZE(config_keys); i++)
			field(i ? "" : "config", "%s=%s: %s",
			       config_keys[i][0],
			       config_value(cfg, config_keys[i][0], v, sizeof(v)),
			       config_keys[i][1]);
		fclose(cfg);
	}
	field("device", "%s: not there while the module is not loaded", ks_dev_path());
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct kstats_info info;
	struct utsname un;
	struct stat st;
	struct passwd *pw;
	struct group *gr;
	char lock[64], mode[12], user[32], group[32], t1[4 * 256 + 1], list[512];
	const char *lockmode;
	int rc, done, fd, i;
	bool traced = false;

	rc = ks_parse(&info_argp, argc, argv, NULL, &done);
	if (rc || done)
		return rc;
	if (!ks_module_loaded() && !opts.device)
		return info_unloaded();
	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	rc = ks_dev_info(fd, &info);
	if (rc) {
		close(fd);
		return ks_dev_error(-rc, "reading the module's info");
	}
	if (fstat(fd, &st))
		memset(&st, 0, sizeof(st));
	close(fd);
	uname(&un);
	lockmode = ks_lockdown_mode(lock, sizeof(lock));
	mode_string(mode, st.st_mode);
	pw = getpwuid(st.st_uid);
	gr = getgrgid(st.st_gid);
	snprintf(user, sizeof(user), "%s", pw ? pw->pw_name : "?");
	snprintf(group, sizeof(group), "%s", gr ? gr->gr_name : "?");
	traced = info.features & KSTATS_FEAT_TRACE;

	if (opts.json) {
		struct json *j = info_doc(un.release);

		json_obj(j);
		json_kstr(j, "version", (const char *)info.version);
		json_ku64(j, "abi_version", info.abi_version);
		json_ku64(j, "max_frac_bits", info.max_frac_bits);
		json_ku64(j, "nr_cpus", info.nr_cpus);
		json_ku64(j, "nr_metrics", info.nr_metrics);
		json_ku64(j, "record_max", info.record_max);
		json_key(j, "features");
		json_arr(j);
		for (i = 0; i < (int)ARRAY_SIZE(feature_names); i++)
			if (info.features & (1ull << i) && feature_names[i])
				json_str(j, feature_names[i]);
		json_arr_end(j);
		json_key(j, "mechanisms");
		json_arr(j);
		for (i = 1; i < (int)ARRAY_SIZE(mech_names); i++)
			if (info.mechanisms & (1ull << i))
				json_str(j, mech_names[i]);
		json_arr_end(j);
		json_obj_end(j);
		json_lockdown(j, lockmode, info.flags & KSTATS_INFO_LOCKDOWN);
		json_key(j, "device");
		json_obj(j);
		json_kstr(j, "path", ks_dev_path());
		json_kstr(j, "mode", mode);
		json_kstr(j, "owner", user);
		json_kstr(j, "group", group);
		json_ku64(j, "major", major(st.st_rdev));
		json_ku64(j, "minor", minor(st.st_rdev));
		json_obj_end(j);
		json_obj_end(j);
		json_end(j);
		return 0;
	}
	/* The kernel's and the account database's strings, as text.c shows any. */
	printf("kstatsctl    %s (ABI %u)\n", KSTATS_VERSION, KSTATS_ABI_VERSION);
	printf("module       %s (ABI %u)\n", ks_text(t1, sizeof(t1), (const char *)info.version),
	       info.abi_version);
	printf("kernel       %s\n", ks_text(t1, sizeof(t1), un.release));
	printf("device       %s %s %s ", ks_dev_path(), mode, ks_text(t1, sizeof(t1), user));
	printf("%s (%u:%u)\n", ks_text(t1, sizeof(t1), group), major(st.st_rdev),
	       minor(st.st_rdev));
	list[0] = '\0';
	for (i = 0; i < (int)ARRAY_SIZE(feature_names); i++)
		if (info.features & (1ull << i) && feature_names[i])
			snprintf(list + strlen(list), sizeof(list) - strlen(list), " %s",
				 feature_names[i]);
	field("features", "%s", list + !!list[0]);
	list[0] = '\0';
	for (i = 1; traced && i < (int)ARRAY_SIZE(mech_names); i++)
		if (info.mechanisms & (1ull << i))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), " %s",
				 mech_names[i]);
	field("tracing", "%s", traced ? list + !!list[0] : "not supported by this module");
	printf("lockdown     %s%s\n", lockmode ? lockmode : "unknown",
	       info.flags & KSTATS_INFO_LOCKDOWN ? " (tracing blocked)" : "");
	printf("cpus         %u possible\n", info.nr_cpus);
	printf("metrics      %u\n", info.nr_metrics);
	printf("frac_bits    0..%u\n", info.max_frac_bits);
	printf("record_max   %u\n", info.record_max);
	return 0;
}
