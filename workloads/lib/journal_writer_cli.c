#include "lib/journal_writer_cli.h"

#include <getopt.h>
#include <limits.h>
#include <string.h>

enum {
	OPT_FILE = 'f',
	OPT_ID = 'i',
	OPT_HELP = 'h',
	OPT_MODE = 256,
	OPT_INTERVAL_MS,
	OPT_SYNC_MS,
	OPT_ACK_EVERY,
	OPT_ACK_MS,
	OPT_TELEMETRY,
	OPT_ACK_FILE,
	OPT_DURATION,
	OPT_RECORDS,
	OPT_CHUNK_KIB,
	OPT_ACK_ON,
};

static const struct option long_options[] = {
	{"file", required_argument, NULL, OPT_FILE},
	{"id", required_argument, NULL, OPT_ID},
	{"mode", required_argument, NULL, OPT_MODE},
	{"interval-ms", required_argument, NULL, OPT_INTERVAL_MS},
	{"sync-ms", required_argument, NULL, OPT_SYNC_MS},
	{"ack-every", required_argument, NULL, OPT_ACK_EVERY},
	{"ack-ms", required_argument, NULL, OPT_ACK_MS},
	{"telemetry", required_argument, NULL, OPT_TELEMETRY},
	{"ack-file", required_argument, NULL, OPT_ACK_FILE},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"records", required_argument, NULL, OPT_RECORDS},
	{"chunk-kib", required_argument, NULL, OPT_CHUNK_KIB},
	{"ack-on", required_argument, NULL, OPT_ACK_ON},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

void jw_cli_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s --file PATH --id NAME [options]\n"
		"Append 128-byte journal records like systemd-journald and acknowledge durable ones.\n"
		"  --file PATH         journal file (created, truncated)\n"
		"  --id NAME           writer id, 1-15 characters, no spaces or '='\n"
		"  --mode mmap|write   shared mmap + msync (default) or pwrite + fdatasync\n"
		"  --interval-ms N     one record every N ms (default 10; 0 = flat out)\n"
		"  --sync-ms N         msync/fdatasync every N ms (default 250; 0 = every record)\n"
		"  --ack-every N       acknowledge after every Nth successful sync (default 1; 0 = off)\n"
		"  --ack-ms N          also acknowledge when N ms passed since the last one (default 0 = off)\n"
		"  --ack-on WHAT       durable (default): what a sync covered; complete: every stored\n"
		"                      record, at most every --ack-ms (what an application believes logged)\n"
		"  --telemetry PATH    stall telemetry file (put it on tmpfs, e.g. /run/rig/NAME.tel)\n"
		"  --ack-file PATH     append acknowledgements to PATH instead of /dev/kmsg\n"
		"  --duration S        run S seconds of CLOCK_MONOTONIC (default 0 = until SIGTERM)\n"
		"  --records N         stop after N records (default 0 = no limit)\n"
		"  --chunk-kib N       mmap mode: grow the file by N KiB (default 1024)\n"
		"  --help              this text\n"
		"Acknowledgement line: rig-ack: id=<id> seq=<n> boottime_ns=<t>\n",
		prog);
}

static bool parse_mode(const char *text, enum jw_mode *mode)
{
	if (strcmp(text, "mmap") == 0)
		*mode = JW_MODE_MMAP;
	else if (strcmp(text, "write") == 0)
		*mode = JW_MODE_WRITE;
	else
		return false;
	return true;
}

static bool apply_option(int opt, const char *arg, struct jw_config *cfg)
{
	unsigned kib;

	switch (opt) {
	case OPT_FILE:
		cfg->path = arg;
		return true;
	case OPT_ID:
		cfg->id = arg;
		return true;
	case OPT_MODE:
		return parse_mode(arg, &cfg->mode);
	case OPT_INTERVAL_MS:
		return wl_parse_uint(arg, INT_MAX, &cfg->interval_ms);
	case OPT_SYNC_MS:
		return wl_parse_uint(arg, INT_MAX, &cfg->sync_ms);
	case OPT_ACK_EVERY:
		return wl_parse_uint(arg, INT_MAX, &cfg->ack_every);
	case OPT_ACK_MS:
		return wl_parse_uint(arg, INT_MAX, &cfg->ack_ms);
	case OPT_TELEMETRY:
		cfg->telemetry_path = arg;
		return true;
	case OPT_ACK_ON:
		if (strcmp(arg, "durable") == 0 || strcmp(arg, "complete") == 0) {
			cfg->ack_completed = strcmp(arg, "complete") == 0;
			return true;
		}
		return false;
	case OPT_ACK_FILE:
		cfg->ack_path = arg;
		return true;
	case OPT_DURATION:
		return wl_parse_uint(arg, INT_MAX, &cfg->duration_s);
	case OPT_RECORDS:
		return wl_parse_u64(arg, &cfg->max_records);
	case OPT_CHUNK_KIB:
		if (!wl_parse_uint(arg, 1u << 20, &kib) || kib == 0)
			return false;
		cfg->chunk_bytes = (uint64_t)kib * 1024;
		return true;
	}
	return false;
}

static const char *option_name(int opt)
{
	for (const struct option *o = long_options; o->name; o++) {
		if (o->val == opt)
			return o->name;
	}
	return "?";
}

enum jw_cli_result jw_cli_parse(int argc, char **argv, struct jw_config *cfg, struct wl_err *err)
{
	int opt;

	jw_config_defaults(cfg);
	optind = 0; /* full getopt reset, so the parser can run more than once (tests) */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "f:i:h", long_options, NULL)) != -1) {
		if (opt == OPT_HELP)
			return JW_CLI_HELP;
		if (opt == '?' || opt == ':')
			return wl_err_set(err, JW_CLI_ERROR, "unknown option or missing argument: %s",
					  argv[optind - 1]);
		if (!apply_option(opt, optarg, cfg))
			return wl_err_set(err, JW_CLI_ERROR, "--%s: invalid value '%s'", option_name(opt),
					  optarg);
	}
	if (optind < argc)
		return wl_err_set(err, JW_CLI_ERROR, "unexpected argument '%s'", argv[optind]);
	if (cfg->path == NULL || cfg->id == NULL)
		return wl_err_set(err, JW_CLI_ERROR, "--file and --id are required");
	if (!jr_id_valid(cfg->id))
		return wl_err_set(err, JW_CLI_ERROR, "--id '%s': 1-15 characters, no spaces or '='",
				  cfg->id);
	return JW_CLI_RUN;
}
