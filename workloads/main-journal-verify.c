/* journal-verify: checks a journal-writer file and, given the last acknowledged sequence
 * number, whether any acknowledged record was lost. See workloads/README.md. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lib/ack.h"
#include "lib/journal_verify.h"

enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct verify_args {
	const char *path;
	const char *id;
	const char *ack_log;
	bool has_acked;
	uint64_t acked;
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [--acked N | --ack-log PATH --id NAME] [--id NAME] FILE\n"
		"Scan a journal-writer file: crc32c, sequence continuity, torn tail, holes.\n"
		"  --acked N       last acknowledged sequence number: judge no-loss against it\n"
		"  --ack-log PATH  take it from a console log / ack file (highest rig-ack seq of --id)\n"
		"  --id NAME       the writer id every record must carry (default: the first record's)\n"
		"Prints: valid_prefix=N records=N torn=N corrupt=N holes=N first_problem=N\n"
		"        [acked=N no-loss=pass|fail lost=N] integrity=pass|fail\n"
		"Exit: 0 pass, 1 fail, 2 usage or I/O error.\n",
		prog);
}

static int parse_args(int argc, char **argv, struct verify_args *args)
{
	static const struct option options[] = {
		{"acked", required_argument, NULL, 'a'},
		{"ack-log", required_argument, NULL, 'l'},
		{"id", required_argument, NULL, 'i'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	memset(args, 0, sizeof(*args));
	while ((opt = getopt_long(argc, argv, "a:l:i:h", options, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout, argv[0]);
			return EXIT_PASS;
		}
		if (opt == 'a' && wl_parse_u64(optarg, &args->acked))
			args->has_acked = true;
		else if (opt == 'l')
			args->ack_log = optarg;
		else if (opt == 'i')
			args->id = optarg;
		else
			return EXIT_USAGE;
	}
	if (optind != argc - 1 || (args->ack_log && (args->id == NULL || args->has_acked)))
		return EXIT_USAGE;
	args->path = argv[optind];
	return -1;
}

/* --ack-log: no acknowledgement at all means nothing was promised, i.e. acked = 0. */
static int load_acked(struct verify_args *args)
{
	struct wl_err err = {{0}};
	bool found;

	if (args->ack_log == NULL)
		return 0;
	if (ack_log_last_seq(args->ack_log, args->id, &args->acked, &found, &err) != 0) {
		fprintf(stderr, "journal-verify: %s\n", err.msg);
		return -1;
	}
	args->has_acked = true;
	return 0;
}

int main(int argc, char **argv)
{
	struct verify_args args;
	struct jv_result result;
	struct jv_verdict verdict;
	struct wl_err err = {{0}};
	char line[512];
	int rc = parse_args(argc, argv, &args);

	if (rc == EXIT_USAGE)
		usage(stderr, argv[0]);
	if (rc >= 0)
		return rc;
	if (load_acked(&args) != 0)
		return EXIT_USAGE;
	if (jv_scan_path(args.path, args.id, &result, &err) != 0) {
		fprintf(stderr, "journal-verify: %s\n", err.msg);
		return EXIT_USAGE;
	}
	jv_judge(&result, args.has_acked, args.acked, &verdict);
	jv_format(&result, &verdict, line, sizeof(line));
	printf("%s\n", line);
	return jv_passed(&verdict) ? EXIT_PASS : EXIT_FAIL;
}
