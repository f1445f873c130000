/* journal-writer: a systemd-journald-like appender that acknowledges durable records on
 * /dev/kmsg. Runs on the board while it suspends; see workloads/README.md. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "lib/journal_writer.h"
#include "lib/journal_writer_cli.h"

/* Set from the signal handler: the only way a signal can talk to the loop. */
static volatile sig_atomic_t stop_requested;

static void request_stop(int signo)
{
	(void)signo;
	stop_requested = 1;
}

static int install_stop_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = request_stop;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: the pacing sleep must wake up so the loop sees the flag. */
	if (sigaction(SIGTERM, &sa, NULL) != 0 || sigaction(SIGINT, &sa, NULL) != 0)
		return -1;
	return 0;
}

static void print_summary(const struct journal_writer *w, int rc)
{
	printf("journal-writer id=%s mode=%s appended=%" PRIu64 " durable=%" PRIu64 " acked=%" PRIu64
	       " errors=%" PRIu64 " last_errno=%d ack_failures=%" PRIu64 " final_sync=%s\n",
	       w->cfg.id, w->backend.ops->name, w->appended_seq, w->durable_seq, w->acked_seq, w->errors,
	       w->last_errno, w->ack_failures, rc == 0 ? "ok" : strerror(-rc));
}

int main(int argc, char **argv)
{
	struct jw_config cfg;
	struct journal_writer writer;
	struct wl_err err = {{0}};
	int rc;

	switch (jw_cli_parse(argc, argv, &cfg, &err)) {
	case JW_CLI_HELP:
		jw_cli_usage(stdout, argv[0]);
		return 0;
	case JW_CLI_ERROR:
		fprintf(stderr, "journal-writer: %s\n", err.msg);
		jw_cli_usage(stderr, argv[0]);
		return 2;
	case JW_CLI_RUN:
		break;
	}
	if (install_stop_handlers() != 0) {
		perror("journal-writer: sigaction");
		return 2;
	}
	if (jw_open(&writer, &cfg, &err) != 0) {
		fprintf(stderr, "journal-writer: %s\n", err.msg);
		return 2;
	}
	rc = jw_run(&writer, &stop_requested);
	print_summary(&writer, rc);
	jw_close(&writer);
	return rc == 0 ? 0 : 1;
}
