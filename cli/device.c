// SPDX-License-Identifier: GPL-2.0
/*
 * The device layer: opens /dev/kstats, loading the module through libkmod
 * when it is not loaded (unless --no-autoload), and turns every errno the
 * device or the module loader gives into a message and a hint.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "kmod_dl.h"

#define HINT_ROOT "needs root or CAP_PERFMON (e.g. sudo kstatsctl ...)"
#define HINT_INSTALL "install the kstats-dkms package ('make deb' in kstats' " \
	"source tree builds it), or from that tree 'sudo dkms add . && sudo dkms " \
	"install kstats/VERSION' (see kstatsctl(8))"
#define HINT_MOK "Secure Boot loads only signed modules: sign kstats.ko with a " \
	"Machine Owner Key (DKMS makes one, /var/lib/dkms/mok.pub), enroll it with " \
	"'sudo mokutil --import /var/lib/dkms/mok.pub', reboot, confirm it in the " \
	"MOK manager, then reinstall kstats"

const char *ks_dev_path(void)
{
	return opts.device ? opts.device : KSTATS_DEVICE;
}

bool ks_module_loaded(void)
{
	return !access("/sys/module/kstats", F_OK);
}

int ks_dev_try_open(void)
{
	int fd = open(ks_dev_path(), O_RDWR | O_CLOEXEC);

	/* A read-only descriptor is enough for INFO, LIST and SNAPSHOT. */
	if (fd < 0 && errno == EACCES)
		fd = open(ks_dev_path(), O_RDONLY | O_CLOEXEC);
	return fd;
}

/* "none", "integrity", "confidentiality", or NULL when unknown. */
static const char *lockdown_mode(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");
	char *l, *r;

	if (!f)
		return NULL;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r)
		return NULL;
	*r = '\0';
	return l + 1;
}

const char *ks_lockdown_mode(char *buf, size_t len)
{
	return lockdown_mode(buf, len);
}

static void quiet_log(void *data, int priority, const char *file, int line,
		      const char *fn, const char *format, va_list args)
{
	(void)data, (void)priority, (void)file, (void)line, (void)fn;
	(void)format, (void)args;
}

/*
 * libkmod's context (quiet) and kstats' module in it, as modprobe would find
 * it: *@path NULL when it is not installed. NULL when libkmod cannot be
 * opened (*@km NULL, *@err says why) or cannot read /lib/modules. The caller
 * unrefs *@mod (when set) and the context.
 */
static struct kmod_ctx *kmod_lookup(const struct ks_kmod **km, struct kmod_module **mod,
				    const char **path, const char **err)
{
	struct kmod_ctx *ctx;

	*mod = NULL;
	*path = NULL;
	*km = ks_kmod(err);
	ctx = *km ? (*km)->new(NULL, NULL) : NULL;
	if (!ctx)
		return NULL;
	(*km)->set_log_fn(ctx, quiet_log, NULL);
	if (!(*km)->module_new_from_name(ctx, "kstats", mod))
		*path = (*km)->module_get_path(*mod);
	return ctx;
}

/* Where modprobe would find kstats.ko for the running kernel (device.h). */
enum ks_installed ks_module_file(char *path, size_t plen, char *ver, size_t vlen,
				 const char **why)
{
	static char reason[512];
	struct kmod_list *info = NULL, *l;
	struct kmod_module *mod;
	const struct ks_kmod *km;
	struct kmod_ctx *ctx;
	enum ks_installed rc = KS_NOT_INSTALLED;
	struct utsname un;
	const char *p, *err;

	ctx = kmod_lookup(&km, &mod, &p, &err);
	if (!ctx) {
		uname(&un);
		if (!km)
			snprintf(reason, sizeof(reason), "libkmod cannot be opened: %s", err);
		else
			snprintf(reason, sizeof(reason), "libkmod cannot read /lib/modules/%s",
				 un.release);
		*why = reason;
		return KS_INSTALLED_UNKNOWN;
	}
	if (p) {
		snprintf(path, plen, "%s", p);
		snprintf(ver, vlen, "?");
		if (km->module_get_info(mod, &info) >= 0) {
			for (l = info; l; l = km->list_next(info, l))
				if (!strcmp(km->module_info_get_key(l), "version"))
					snprintf(ver, vlen, "%s", km->module_info_get_value(l));
			km->module_info_free_list(info);
		}
		rc = KS_INSTALLED;
	}
	if (mod)
		km->module_unref(mod);
	km->unref(ctx);
	return rc;
}

/* Loads kstats with libkmod, as modprobe would; 0 or an exit code. */
static int autoload(void)
{
	struct kmod_module *mod;
	const struct ks_kmod *km;
	struct kmod_ctx *ctx;
	struct utsname un;
	const char *path, *why;
	char lock[64];
	const char *mode;
	int err;

	uname(&un);
	ctx = kmod_lookup(&km, &mod, &path, &why);
	if (!km)
		return ks_fail(EXIT_RUNTIME, "install libkmod2 (kmod's library), or load "
			       "kstats with 'sudo modprobe kstats'",
			       "the kstats module is not loaded, and libkmod "
			       "cannot be opened to load it: %s", why);
	if (!ctx)
		return ks_fail(EXIT_RUNTIME, HINT_INSTALL,
			       "the kstats module is not loaded, and libkmod cannot "
			       "read /lib/modules/%s", un.release);
	if (!path) {
		if (mod)
			km->module_unref(mod);
		km->unref(ctx);
		return ks_fail(EXIT_RUNTIME, HINT_INSTALL,
			       "the kstats module is not loaded, and not installed "
			       "for kernel %s", un.release);
	}
	err = km->module_probe_insert_module(mod, 0, NULL, NULL, NULL, NULL);
	km->module_unref(mod);
	km->unref(ctx);
	if (err >= 0 || err == -EEXIST)
		return 0;
	err = -err;
	switch (err) {
	case EPERM:
	case EACCES:
		if (geteuid() != 0)
			return ks_fail(EXIT_RUNTIME, "run as root (sudo kstatsctl ...), "
				       "or load it once with 'sudo modprobe kstats'",
				       "the kstats module is not loaded, and loading it "
				       "needs root: %s", strerror(err));
		mode = lockdown_mode(lock, sizeof(lock));
		if (mode && strcmp(mode, "none"))
			return ks_fail(EXIT_RUNTIME, HINT_MOK,
				       "loading kstats: the kernel is locked down "
				       "(%s, Secure Boot) and refused an unsigned "
				       "module", mode);
		return ks_fail(EXIT_RUNTIME, "see 'dmesg' for why",
			       "loading kstats: %s", strerror(err));
	case EKEYREJECTED:
	case ENOKEY:
	case EBADMSG:
		return ks_fail(EXIT_RUNTIME, HINT_MOK,
			       "loading kstats: Secure Boot rejected the module: %s",
			       strerror(err));
	case ENOEXEC:
	case EINVAL:
		return ks_fail(EXIT_RUNTIME, "rebuild it for this kernel ('dkms "
			       "autoinstall', or 'make && sudo make install' in its "
			       "source tree)",
			       "loading kstats: %s was not built for kernel %s: %s",
			       path, un.release, strerror(err));
	default:
		return ks_fail(EXIT_RUNTIME, "see 'dmesg' for why",
			       "loading kstats (%s): %s", path, strerror(err));
	}
}

static int wait_open(int tries)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int fd;

	while ((fd = ks_dev_try_open()) < 0 && errno == ENOENT && tries-- > 0)
		nanosleep(&ts, NULL);
	return fd;
}

/*
 * --device PATH opened: is it kstats' device? Every kstats module answers INFO;
 * anything else (/dev/null, a file) says ENOTTY, which would otherwise
 * read as "the module is older than kstatsctl".
 */
static int check_named_device(int fd)
{
	struct kstats_info info;

	if (!opts.device || ks_dev_info(fd, &info) != -ENOTTY)
		return fd;
	close(fd);
	ks_fail(EXIT_RUNTIME, "--device names the kstats device; without it, kstatsctl "
		"opens " KSTATS_DEVICE, "%s is not a kstats device (ENOTTY)", opts.device);
	return -1;
}

int ks_dev_open(void)
{
	int fd = ks_dev_try_open(), err;

	if (fd >= 0)
		return check_named_device(fd);
	err = errno;
	/* --device PATH: that path, not the module, is what is missing. */
	if (opts.device && err == ENOENT) {
		ks_fail(EXIT_RUNTIME, "--device names the kstats device; without it, kstatsctl "
			"opens " KSTATS_DEVICE " (and loads the module)",
			"cannot open %s: %s", opts.device, strerror(err));
		return -1;
	}
	if (err == ENOENT || err == ENXIO || err == ENODEV) {
		if (ks_module_loaded()) {
			fd = wait_open(20);
			if (fd >= 0)
				return fd;
			ks_fail(EXIT_RUNTIME, "check that udev created it "
				"('udevadm trigger'), or give its path with --device",
				"the kstats module is loaded but %s is missing",
				ks_dev_path());
			return -1;
		}
		if (opts.no_autoload) {
			char path[4096], ver[64];
			const char *why;

			/* modprobe needs kstats.ko installed: say so first. */
			if (ks_module_file(path, sizeof(path), ver, sizeof(ver), &why) ==
			    KS_NOT_INSTALLED)
				ks_fail(EXIT_RUNTIME, HINT_INSTALL,
					"the kstats module is not loaded, and not "
					"installed for this kernel");
			else
				ks_fail(EXIT_RUNTIME, "load it with 'sudo modprobe kstats', or "
					"run without --no-autoload to let kstatsctl load it",
					"the kstats module is not loaded");
			return -1;
		}
		if (autoload())
			return -1;
		fd = wait_open(40);
		if (fd >= 0)
			return fd;
		err = errno;
	}
	if (err == EACCES || err == EPERM)
		ks_fail(EXIT_RUNTIME, "run as root, or get read access to the "
			"device (the packaged udev rule gives it to group kstats); "
			"changing metrics also " HINT_ROOT,
			"cannot open %s: %s", ks_dev_path(), strerror(err));
	else
		ks_fail(EXIT_RUNTIME, NULL, "cannot open %s: %s", ks_dev_path(),
			strerror(err));
	return -1;
}

int ks_dev_error(int err, const char *what)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return ks_fail(EXIT_RUNTIME, HINT_ROOT, "%s: permission denied", what);
	case ENOENT:
		return ks_fail(EXIT_RUNTIME, "'kstatsctl list' shows the metrics",
			       "%s: no such metric", what);
	case EEXIST:
		return ks_fail(EXIT_RUNTIME, "pick another name, or delete it first "
			       "('kstatsctl delete NAME')", "%s: already exists", what);
	case EBUSY:
		return ks_fail(EXIT_RUNTIME, "modules delete their own metrics; "
			       "'kstatsctl untrace NAME' removes a trace's",
			       "%s: belongs to a kernel module or a trace", what);
	case EOPNOTSUPP:
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' shows what the loaded "
			       "module supports", "%s: not supported by this kstats "
			       "module", what);
	case ENOTTY:
	case E2BIG:
		return ks_fail(EXIT_RUNTIME, "the kstats module is older than "
			       "kstatsctl: 'kstatsctl --version' shows both",
			       "%s: the kstats module does not know this request", what);
	default:
		return ks_fail(EXIT_RUNTIME, NULL, "%s: %s", what, strerror(err));
	}
}

int ks_dev_info(int fd, struct kstats_info *info)
{
	memset(info, 0, sizeof(*info));
	if (ioctl(fd, KSTATS_IOC_INFO, info))
		return -errno;
	info->version[sizeof(info->version) - 1] = '\0';
	return 0;
}

int ks_dev_list(int fd, struct kstats_metric_info **out, uint32_t *nr)
{
	struct kstats_metric_info *e = NULL;
	struct kstats_list l;
	uint32_t cap = 16;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		e = xrealloc(e, cap, sizeof(*e));
		memset(&l, 0, sizeof(l));
		l.entries = (uint64_t)(uintptr_t)e;
		l.entry_size = sizeof(*e);
		l.nr_entries = cap;
		if (!ioctl(fd, KSTATS_IOC_LIST, &l)) {
			*out = e;
			*nr = l.nr_entries;
			return 0;
		}
		if (errno != ENOSPC) {
			int err = errno;

			free(e);
			return -err;
		}
		cap = l.nr_entries + 16;
	}
	free(e);
	return -EAGAIN;
}
