// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl: the command line of kstats.
 *
 *   kstatsctl [GLOBAL OPTIONS] COMMAND [ARGS]
 *
 * This file parses the global options (argp), picks the command from the
 * table below and hands it the rest of the command line; each command lives
 * in its own file and parses its own options, the global ones included, so
 * "kstatsctl show x -j" works as well as "kstatsctl -j show x".
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "outliers.h"
#include "device.h"
#include "hdr.h"
#include "json.h"
#include "names.h"
#include "stats.h"
#include "units.h"

const struct ks_cmd ks_cmds[] = {
	{ "list", cmd_list, &list_argp, "every metric: kind, owner, state, frac_bits, count" },
	{ "show", cmd_show, &show_argp, "a metric's distribution, percentiles, CDF, ..." },
	{ "summary", cmd_summary, &summary_argp, "a line per metric: count, rate, mean, p50, p99, max" },
	{ "create", cmd_create, &create_argp, "create a metric to record into from user space" },
	{ "delete", cmd_delete, &delete_argp, "delete a metric created from user space" },
	{ "record", cmd_record, &record_argp, "add samples to a metric" },
	{ "start", cmd_start, &control_argp, "resume recording (NAME or --all)" },
	{ "stop", cmd_stop, &control_argp, "pause recording, keeping the samples" },
	{ "reset", cmd_reset, &control_argp, "empty a metric's histograms" },
	{ "trace", cmd_trace, &trace_argp, "time a kernel function or section, or record its values" },
	{ "untrace", cmd_untrace, &untrace_argp, "remove a trace and its metrics" },
	{ "outliers", cmd_outliers, &outliers_argp, "a trace's slowest calls, with their stacks" },
	{ "snapshot", cmd_snapshot, &snapshot_argp, "save metrics to a snapshot file" },
	{ "diff", cmd_diff, &diff_argp, "compare two snapshots, or one with the live metrics" },
	{ "export", cmd_export, &export_argp, "write metrics for Prometheus (node_exporter textfile)" },
	{ "plot", cmd_plot, &plot_argp, "draw a file's metrics as SVG: hist, cdf, heatmap" },
	{ "info", cmd_info, &info_argp, "module, ABI, tracing mechanisms, lockdown, device" },
	{ "help", cmd_help, &help_argp, "this help, or a command's" },
};
const size_t ks_nr_cmds = ARRAY_SIZE(ks_cmds);

enum {
	OPT_NO_AUTOLOAD = 0x100,
	OPT_UNITS,
	OPT_PERCENTILES,
	OPT_COLOR,
	OPT_NS,
	OPT_HDR_UNIT,
	OPT_FROM,
	OPT_TO,
	OPT_PRETTY,
	OPT_DEVICE,
};

static const struct argp_option global_options[] = {
	{ "json", 'j', NULL, 0, "Output JSON (errors too)", -1 },
	{ "pretty", OPT_PRETTY, NULL, 0, "Output indented JSON (implies --json)", -1 },
	{ "device", OPT_DEVICE, "PATH", 0, "The kstats device (default " KSTATS_DEVICE ")",
	  -1 },
	{ "no-autoload", OPT_NO_AUTOLOAD, NULL, 0,
	  "Do not load the kstats module when it is not loaded", -1 },
	{ "units", OPT_UNITS, "UNIT", 0,
	  "Show values in ns, us, ms, s, or auto (per value; the default)", -1 },
	{ "percentiles", OPT_PERCENTILES, "LIST", 0,
	  "The percentiles to show, e.g. 50,95,99.5 (default 50,90,99,99.9,99.99)", -1 },
	{ "color", OPT_COLOR, "WHEN", 0,
	  "Colour: auto (on a terminal; the default), always or never", -1 },
	{ "ns", OPT_NS, "PATTERN", 0, "Metrics matching PATTERN hold nanoseconds "
	  "(traces' times always do; their values and others are plain numbers)", -1 },
	{ "hdr-unit", OPT_HDR_UNIT, "UNIT", 0,
	  "The unit of an HdrHistogram log's values (-i): ns (the default), us, ms or s", -1 },
	{ "from", OPT_FROM, "TIME", 0, "Read an HdrHistogram log's intervals that start at "
	  "TIME or later: seconds from its start (3600, 90m, 2h) or a UTC time "
	  "(HH:MM[:SS], YYYY-MM-DDTHH:MM[:SS])", -1 },
	{ "to", OPT_TO, "TIME", 0, "... and before TIME (as --from)", -1 },
	{ "help", 'h', NULL, 0, "Give this help list", -1 },
	{ "version", 'V', NULL, 0, "Print the program, module and ABI versions", -1 },
	{ 0 }
};

static bool help_done;

static void print_version(void)
{
	struct kstats_info info;
	int fd = ks_dev_try_open();
	bool have = fd >= 0 && !ks_dev_info(fd, &info);

	if (fd >= 0)
		close(fd);
	if (opts.json) {
		struct json *j = json_doc("version");

		json_kstr(j, "kstatsctl", KSTATS_VERSION);
		json_ku64(j, "abi_version", KSTATS_ABI_VERSION);
		json_key(j, "module");
		if (have) {
			json_obj(j);
			json_kstr(j, "version", (const char *)info.version);
			json_ku64(j, "abi_version", info.abi_version);
			json_obj_end(j);
		} else {
			json_null(j);
		}
		json_obj_end(j);
		json_end(j);
		return;
	}
	printf("kstatsctl %s (ABI %u)\n", KSTATS_VERSION, KSTATS_ABI_VERSION);
	if (have)
		printf("kstats module %s (ABI %u)\n", (const char *)info.version,
		       info.abi_version);
	else
		printf("kstats module: not loaded\n");
}

static error_t global_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'j':
		opts.json = true;
		break;
	case OPT_PRETTY:
		opts.json = opts.pretty = true;
		break;
	case OPT_DEVICE:
		opts.device = arg;
		break;
	case OPT_NO_AUTOLOAD:
		opts.no_autoload = true;
		break;
	case OPT_UNITS:
		if (ks_unit_parse(arg, &opts.units)) {
			ks_usage("--units: '%s' is not ns, us, ms, s or auto", arg);
			return EINVAL;
		}
		opts.units_set = true;
		break;
	case OPT_PERCENTILES:
		return ks_pcts_parse(arg);
	case OPT_NS: {
		static struct ks_names ns;

		ks_names_add(&ns, arg);
		opts.ns = &ns;
		break;
	}
	case OPT_COLOR:
		if (strcmp(arg, "auto") && strcmp(arg, "always") && strcmp(arg, "never")) {
			ks_usage("--color: '%s' is not auto, always or never", arg);
			return EINVAL;
		}
		ks_set_color(arg);
		break;
	case OPT_HDR_UNIT:
		if (ks_unit_parse(arg, &opts.hdr_unit) || opts.hdr_unit == UNIT_AUTO) {
			ks_usage("--hdr-unit: '%s' is not ns, us, ms or s", arg);
			return EINVAL;
		}
		break;
	case OPT_FROM:
	case OPT_TO:
		return ks_hlog_window_parse(arg, key == OPT_TO) ? EINVAL : 0;
	case 'h':
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP, state->name);
		help_done = true;
		state->next = state->argc;
		break;
	case 'V':
		print_version();
		help_done = true;
		state->next = state->argc;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* kstatsctl --help lists the global options ... */
static const struct argp global_argp = { global_options, global_parse, NULL, NULL,
					 NULL, NULL, NULL };
/*
 * ... and each command takes them too, after it, without listing them
 * again: the same options, hidden (filled in by main()), and a line.
 */
static struct argp_option hidden_global_options[ARRAY_SIZE(global_options)];
const struct argp ks_global_argp = {
	hidden_global_options, global_parse, NULL,
	"\vThe global options (-j, --device, --units, --color, --percentiles, ...) work "
	"here too: 'kstatsctl --help' lists them.", NULL, NULL, NULL
};

static void hide_global_options(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(global_options); i++) {
		hidden_global_options[i] = global_options[i];
		if (global_options[i].name)
			hidden_global_options[i].flags |= OPTION_HIDDEN;
	}
}

struct parse_ctx {
	void *input;		/* the command's own input */
	int bad_index;
};

static error_t error_catcher(int key, char *arg, struct argp_state *state)
{
	struct parse_ctx *ctx = state->input;

	(void)arg;
	if (key == ARGP_KEY_INIT)
		state->child_inputs[0] = ctx->input;
	if (key == ARGP_KEY_ERROR)
		ctx->bad_index = state->next - 1;
	return ARGP_ERR_UNKNOWN;
}

/* Collects "--name" of every long option of @argp and its children. */
static void long_options(const struct argp *argp, char (*names)[32], size_t *nr,
			 size_t max)
{
	const struct argp_option *o;
	const struct argp_child *c;

	for (o = argp->options; o && (o->name || o->key || o->doc); o++)
		if (o->name && *nr < max)
			snprintf(names[(*nr)++], sizeof(names[0]), "--%s", o->name);
	for (c = argp->children; c && c->argp; c++)
		long_options(c->argp, names, nr, max);
}

/*
 * -p and -d were --pretty and --device before trace took them for --pid and
 * --duration, as bcc's tools spell them: where they mean nothing, say so.
 */
static const struct {
	char letter;
	const char *now, *then;
} retired_shorts[] = {
	{ 'p', "-p is trace's --pid", "for indented JSON, --pretty" },
	{ 'd', "-d is trace's --duration", "for another device, --device PATH" },
};

static bool retired_short_hint(const char *arg)
{
	size_t i;

	if (arg[0] != '-' || arg[1] == '-' || (opts.cmd && !strcmp(opts.cmd, "trace")))
		return false;
	for (i = 0; i < ARRAY_SIZE(retired_shorts); i++)
		if (strchr(arg + 1, retired_shorts[i].letter)) {
			ks_set_hint("%s; %s", retired_shorts[i].now, retired_shorts[i].then);
			return true;
		}
	return false;
}

/* A mistyped long option: "did you mean '--interval'?" */
static void option_hint(const struct argp *argp, const char *arg)
{
	char names[96][32], word[32];
	const char *ptrs[96], *near;
	size_t nr = 0, i;

	if (retired_short_hint(arg) || strncmp(arg, "--", 2))
		return;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg, "="), arg);
	long_options(argp, names, &nr, ARRAY_SIZE(names));
	for (i = 0; i < nr; i++)
		ptrs[i] = names[i];
	near = ks_closest(word, ptrs, nr);
	if (near)
		ks_set_hint("did you mean '%s'? (see 'kstatsctl%s%s --help')", near,
			    opts.cmd ? " " : "", opts.cmd ? opts.cmd : "");
}

/*
 * Every parse goes through here: argp runs without exiting or printing, so
 * that errors come out in our format (and as JSON with -j).
 */
int ks_parse(const struct argp *argp, int argc, char **argv, void *input,
	     int *done)
{
	const struct argp_child children[] = {
		{ argp, 0, NULL, 0 },
		{ 0 }
	};
	const struct argp outer = { NULL, error_catcher, NULL, NULL, children,
				    NULL, NULL };
	struct parse_ctx ctx = { input, -1 };
	error_t err;

	help_done = false;
	err = argp_parse(&outer, argc, argv,
			 ARGP_IN_ORDER | ARGP_NO_EXIT | ARGP_NO_HELP | ARGP_NO_ERRS,
			 NULL, &ctx);
	*done = help_done;
	if (help_done)
		return ks_failed() ? EXIT_USAGE : 0;
	if (!err)
		return 0;
	if (!ks_failed()) {
		if (ctx.bad_index > 0 && ctx.bad_index < argc) {
			option_hint(argp, argv[ctx.bad_index]);
			ks_usage("unrecognized option or missing argument: '%s'",
				 argv[ctx.bad_index]);
		} else
			ks_usage("bad arguments");
	}
	return EXIT_USAGE;
}

/* ---- the top level ---- */

static int cmd_index = -1;

static error_t main_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key == ARGP_KEY_ARG) {
		cmd_index = state->next - 1;
		state->next = state->argc;	/* the rest is the command's */
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static char main_doc[4096];

static const struct argp_child main_children[] = {
	{ &global_argp, 0, NULL, 0 },
	{ 0 }
};

static struct argp main_argp = { NULL, main_parse, "[COMMAND [ARGS...]]", main_doc,
				 main_children, NULL, NULL };

static void build_main_doc(void)
{
	size_t i, n;

	n = snprintf(main_doc, sizeof(main_doc),
		     "Measure kernel timings with kstats: per-CPU log-linear "
		     "histograms, their percentiles and CDFs.\v"
		     "Commands:\n");
	for (i = 0; i < ks_nr_cmds; i++)
		n += snprintf(main_doc + n, sizeof(main_doc) - n, "  %-9s %s\n",
			      ks_cmds[i].name, ks_cmds[i].summary);
	snprintf(main_doc + n, sizeof(main_doc) - n,
		 "\nWithout a command: list. 'kstatsctl COMMAND --help' shows a "
		 "command's options.\nExit status: 0 ok, 1 runtime error, "
		 "2 usage error, 3 diff: a metric has no interval, 4 diff: a "
		 "--fail-if condition held, 5 diff: one not decided. See "
		 "kstatsctl(8).");
}

static void ks_main_help(FILE *out)
{
	argp_help(&main_argp, out, ARGP_HELP_STD_HELP, (char *)"kstatsctl");
}

/* The command @name, or NULL with the error printed ("did you mean"). */
static const struct ks_cmd *find_cmd(const char *name)
{
	const char *names[ARRAY_SIZE(ks_cmds)], *near;
	size_t i;

	for (i = 0; i < ks_nr_cmds; i++) {
		if (!strcmp(ks_cmds[i].name, name))
			return &ks_cmds[i];
		names[i] = ks_cmds[i].name;
	}
	near = ks_closest(name, names, ks_nr_cmds);
	if (near)
		ks_set_hint("did you mean '%s'? ('kstatsctl help' lists the commands)", near);
	else
		ks_set_hint("'kstatsctl help' lists the commands");
	ks_usage("unknown command '%s'", name);
	return NULL;
}

struct help_args {
	const char *cmd;
	int nr;
};

static error_t help_parse(int key, char *arg, struct argp_state *state)
{
	struct help_args *a = state->input;

	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	a->cmd = arg;
	a->nr++;
	return 0;
}

static const struct argp_child help_children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

const struct argp help_argp = { NULL, help_parse, "[COMMAND]",
				"Shows the list of commands, or a command's options.",
				help_children, NULL, NULL };

int cmd_help(int argc, char **argv)
{
	struct help_args a = { NULL, 0 };
	const struct ks_cmd *c;
	char *hargv[3];
	char name[64];
	int rc, done;

	rc = ks_parse(&help_argp, argc, argv, &a, &done);
	if (rc || done)
		return rc;
	if (a.nr > 1)
		return ks_usage("help takes at most one command");
	if (opts.json) {
		ks_set_hint("kstatsctl(8), JSON OUTPUT, describes each command's JSON");
		return ks_usage("help prints text: -j does not apply");
	}
	if (!a.cmd) {
		ks_main_help(stdout);
		return 0;
	}
	c = find_cmd(a.cmd);
	if (!c)
		return EXIT_USAGE;
	snprintf(name, sizeof(name), "kstatsctl %s", c->name);
	hargv[0] = name;
	hargv[1] = (char *)"--help";
	hargv[2] = NULL;
	return ks_parse(c->argp, 2, hargv, NULL, &done);
}

/* "always", "never", or else auto: on a terminal, unless NO_COLOR is set. */
void ks_set_color(const char *c)
{
	if (c && !strcmp(c, "always")) {
		opts.color_out = opts.color_err = true;
	} else if ((c && !strcmp(c, "never")) || getenv("NO_COLOR")) {
		opts.color_out = opts.color_err = false;
	} else {
		opts.color_out = isatty(STDOUT_FILENO);
		opts.color_err = isatty(STDERR_FILENO);
	}
}

static void setup_color(void)
{
	ks_set_color(getenv("KSTATS_COLOR"));
}

/* -j/--pretty given before the command: JSON for errors from the start. */
static void prescan_json(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--pretty"))
			opts.json = true;
		else if (argv[i][1] != '-' && strchr(argv[i] + 1, 'j'))
			opts.json = true;
	}
}

int main(int argc, char **argv)
{
	const struct ks_cmd *cmd;
	char name[64];
	int rc, done;

	setup_color();
	ks_uaddr_namer = ks_uaddr_name;	/* user frames: libelf, here only */
	hide_global_options();
	prescan_json(argc, argv);
	build_main_doc();
	signal(SIGPIPE, SIG_DFL);
	rc = ks_parse(&main_argp, argc, argv, NULL, &done);
	if (rc || done)
		return rc;
	if (cmd_index < 0) {
		char *largv[] = { (char *)"kstatsctl list", NULL };

		opts.cmd = "list";
		return cmd_list(1, largv);
	}
	cmd = find_cmd(argv[cmd_index]);
	if (!cmd)
		return EXIT_USAGE;
	opts.cmd = cmd->name;
	snprintf(name, sizeof(name), "kstatsctl %s", cmd->name);
	argv[cmd_index] = name;
	rc = cmd->run(argc - cmd_index, argv + cmd_index);
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			return ks_fail(EXIT_RUNTIME, NULL, "writing the output: %s",
				       strerror(errno));
	}
	return rc;
}
