/* fio's checkpointed verify state and the verdict on its verify-only pass. */
#include "judge/fio.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/kv.h"

/* Every character of s in the alphabet: what comes off the console goes back to the board in a
 * `rig-dut fio-verify NAME=STATE` command line, so it must not carry shell syntax. */
static bool only(const char *s, const char *alphabet)
{
	return s[strspn(s, alphabet)] == '\0';
}

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
#define BASE64_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/="

int fio_ack_feed(struct fio_acks *a, const char *line)
{
	struct fio_ack *k;
	char fs[sizeof(a->items[0].fs)];

	if (!kv_get(line, "fio", fs, sizeof(fs)) || !*fs || a->n == FIO_ACKS_MAX)
		return 0;
	k = &a->items[a->n++];
	memset(k, 0, sizeof(*k));
	if (!only(fs, NAME_CHARS)) {
		/* kept out of the name too: it is stored and shown, never sent back */
		snprintf(k->fs, sizeof(k->fs), "?");
		snprintf(k->error, sizeof(k->error), "bad-name");
		return 1;
	}
	snprintf(k->fs, sizeof(k->fs), "%s", fs);
	if (kv_get(line, "error", k->error, sizeof(k->error)))
		return 1;
	if (kv_long(line, "written", -1) == 0)
		return 1;   /* fio was between runs: nothing acknowledged, no state to carry */
	if (!kv_get(line, "state", k->state, sizeof(k->state)) || !*k->state)
		snprintf(k->error, sizeof(k->error), "no-state");
	else if (strlen(k->state) == sizeof(k->state) - 1)
		snprintf(k->error, sizeof(k->error), "state-too-long");
	else if (!only(k->state, BASE64_CHARS))
		snprintf(k->error, sizeof(k->error), "bad-state");
	else if (kv_long(line, "written", -1) < 0)
		snprintf(k->error, sizeof(k->error), "no-write-count");
	else
		k->written = (uint64_t)kv_long(line, "written", 0);
	if (*k->error)
		k->state[0] = '\0';
	return 1;
}

enum results_verdict_result fio_verify_judge(const struct fio_ack *ack, const char *line,
					     long *verified, char *detail, size_t size)
{
	char verdict[16] = "", why[200] = "";

	*verified = kv_long(line, "verified", -1);
	if (*ack->error) {
		snprintf(detail, size, "fio: no verify state from the checkpoint (%s): nothing to check",
			 ack->error);
		return RESULTS_VERDICT_ERROR;
	}
	if (ack->written == 0) {
		snprintf(detail, size, "fio: no write of the current run acknowledged at the checkpoint "
			 "(between two runs, or stopped in the verify pass that ends a run)");
		return RESULTS_VERDICT_SKIP;
	}
	if (kv_get(line, "error", why, sizeof(why)) || !kv_get(line, "verify", verdict, sizeof(verdict))) {
		snprintf(detail, size, "fio: verify-only pass did not run (%s)", *why ? why : line);
		return RESULTS_VERDICT_ERROR;
	}
	kv_get(line, "first_error", why, sizeof(why));
	if (strcmp(verdict, "pass") == 0 && *verified >= 0 && (uint64_t)*verified >= ack->written) {
		snprintf(detail, size, "fio: every acknowledged block intact (%ld of %" PRIu64
			 " blocks written before the checkpoint read back and verified)",
			 *verified, ack->written);
		return RESULTS_VERDICT_PASS;
	}
	if (strcmp(verdict, "pass") == 0)
		snprintf(detail, size, "fio: only %ld of %" PRIu64 " acknowledged blocks verified",
			 *verified, ack->written);
	else
		snprintf(detail, size, "fio: acknowledged blocks lost or damaged (%ld of %" PRIu64
			 " read when fio stopped at the first bad one)%s%s",
			 *verified < 0 ? 0 : *verified, ack->written, *why ? ": " : "", why);
	return RESULTS_VERDICT_FAIL;
}
