/* The judge after a resume and after a forced failed resume, from evidence records alone (as a
 * board's replies and its console give them): stall per filesystem, order, owner, clean-resume
 * with known issues applied, writers-alive; no-loss against the acknowledgements seen, fsck. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/known.h"
#include "tests/unit/support.h"

static struct board_filesystem filesystems[] = {
	{ .name = "nvme-ext4", .type = "ext4", .device = "/dev/nvme0n1p1", .mount = "/mnt/nvme-ext4" },
	{ .name = "sata-xfs", .type = "xfs", .device = "/dev/sda1", .mount = "/mnt/sata-xfs" },
};
static struct board board = { .name = "fake", .filesystems = filesystems, .n_filesystems = 2 };

static const char *const trace_lines[] = {
	"fs_freeze 10000000000 ", "freeze_super 10001000000 nvme0n1p1", "freeze_super_ret 10002000000 ",
	"freeze_super 10003000000 sda1", "freeze_super_ret 10004000000 ", "fs_freeze_done 10005000000 ",
	"fs_thaw 12000000000 ", "thaw_super 12001000000 sda1", "thaw_super 12002000000 nvme0n1p1",
	"fs_thaw_done 12003000000 ",
};
#define N_TRACE (sizeof(trace_lines) / sizeof(trace_lines[0]))

/* Blocked across nvme's window; on sata, a store that completes 500 ms into its window. */
static const char *const stall_lines[] = {
	"window from_ns=10000000000 to_ns=12003000000",
	"writer=nvme-ext4-m1a tel ops=40 errors=0 longest_ns=2000000000 inflight_start_ns=0 retained=9",
	"writer=nvme-ext4-m1a op start_ns=10001500000 end_ns=12002500000 err=0 kind=store seq=40",
	"writer=sata-xfs-m2b tel ops=41 errors=0 longest_ns=2000000000 inflight_start_ns=0 retained=9",
	"writer=sata-xfs-m2b op start_ns=10600000000 end_ns=10600100000 err=0 kind=store seq=41",
	"writer=sata-xfs-m2b op start_ns=10600200000 end_ns=12001500000 err=0 kind=store seq=42",
};
#define N_STALL (sizeof(stall_lines) / sizeof(stall_lines[0]))

static const struct judge_verdict *find(const struct judgement *j, const char *name, const char *fs)
{
	for (size_t i = 0; i < j->n_verdicts; i++)
		if (strcmp(j->verdicts[i].name, name) == 0 &&
		    (fs ? j->verdicts[i].filesystem && strcmp(j->verdicts[i].filesystem, fs) == 0
			: !j->verdicts[i].filesystem))
			return &j->verdicts[i];
	fail_msg("no %s%s%s verdict", name, fs ? " " : "", fs ? fs : "");
	return NULL;
}

static void event(struct judge_event *e, struct kevent_parser *p, const char *line)
{
	assert_int_equal(kevent_parse(p, line, &e->ev), 1);
	e->text = (char *)line;
}

/* rig-dut collect's one reply, split by its "collect=PART" lines, parses as the three commands'
 * replies did: the same window, writers and telemetry. */
static void collect_reply_split_into_its_parts(void **state)
{
	const char *reply[2 + N_TRACE + 1 + 2 + 1 + N_STALL + 1];
	const char *alive_lines[] = { "writer=nvme-ext4-m1a alive=1", "writer=sata-xfs-m2b alive=0" };
	struct frozen_window apart, together;
	struct ev_stall_ops ops_apart, ops_together;
	struct ev_alive alive;
	struct rig_err err;
	size_t n = 0, first, count;

	(void)state;
	reply[n++] = "rig-dut: a stray line before any part";
	reply[n++] = "collect=trace";
	for (size_t i = 0; i < N_TRACE; i++)
		reply[n++] = trace_lines[i];
	reply[n++] = "collect=alive";
	reply[n++] = alive_lines[0];
	reply[n++] = alive_lines[1];
	reply[n++] = "collect=stall";
	for (size_t i = 0; i < N_STALL; i++)
		reply[n++] = stall_lines[i];

	assert_true(ev_collect_part(reply, n, "trace", &first, &count));
	assert_int_equal(first, 2);
	assert_int_equal(count, N_TRACE);
	ev_parse_trace(reply + first, count, &together);
	ev_parse_trace(trace_lines, N_TRACE, &apart);
	assert_memory_equal(&together, &apart, sizeof(apart));
	assert_true(together.thaw_done);

	assert_true(ev_collect_part(reply, n, "alive", &first, &count));
	assert_int_equal(count, 2);
	ev_parse_alive(reply + first, count, &alive);
	assert_int_equal(alive.n, 2);
	assert_false(alive.writers[1].alive);

	assert_true(ev_collect_part(reply, n, "stall", &first, &count));
	assert_int_equal(count, N_STALL);
	assert_int_equal(ev_parse_stall_ops(reply + first, count, &ops_together, &err), 0);
	assert_int_equal(ev_parse_stall_ops(stall_lines, N_STALL, &ops_apart, &err), 0);
	assert_int_equal(ops_together.n, ops_apart.n);
	assert_int_equal(ops_together.writers[1].n_ops, 2);
	assert_int_equal(ops_together.to_ns, ops_apart.to_ns);
	ev_stall_ops_free(&ops_together);
	ev_stall_ops_free(&ops_apart);

	/* a part asked for and left out (a rig-dut without collect prints its help) is not found;
	 * a marker is matched whole; an empty part is there, with no lines */
	assert_false(ev_collect_part(reply, n, "owner", &first, &count));
	assert_false(ev_collect_part(reply, n, "trac", &first, &count));
	reply[n++] = "collect=owner";
	assert_true(ev_collect_part(reply, n, "owner", &first, &count));
	assert_int_equal(count, 0);
}

static void resume_from_evidence(void **state)
{
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4", .knob_freeze_filesystems = 1 };
	const char *alive_lines[] = { "writer=nvme-ext4-m1a alive=1", "writer=sata-xfs-m2b alive=0" };
	struct frozen_window w;
	struct ev_stall_ops ops;
	struct ev_alive alive;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	struct kevent_parser *p;
	struct judge_event ev[2] = { 0 };

	(void)state;
	assert_int_equal(kevent_parser_new("@@RIG@@", &p, &err), 0);
	event(&ev[0], p, "[   12.000000] PM: suspend entry (deep)");
	event(&ev[1], p, "[   14.000000] PM: suspend exit");
	ev_parse_trace(trace_lines, N_TRACE, &w);
	assert_int_equal(ev_parse_stall_ops(stall_lines, N_STALL, &ops, &err), 0);
	assert_true(ops.window);
	assert_int_equal(ops.n, 2);
	ev_parse_alive(alive_lines, 2, &alive);
	{
		struct judge_resume r = { .trace = &w, .stall = &ops, .alive = &alive, .events = ev,
					  .n_events = 2, .owner_fs = "nvme-ext4", .owner_frozen = 0 };

		assert_int_equal(judge_after_resume(&c, &j, &r, &err), 0);
	}
	assert_int_equal(find(&j, "stall", "nvme-ext4")->result, RESULTS_VERDICT_PASS);
	assert_int_equal(find(&j, "stall", "sata-xfs")->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "stall", "sata-xfs")->detail, "wrote_while_frozen=1"));
	assert_int_equal(find(&j, "order", NULL)->result, RESULTS_VERDICT_SKIP);   /* no loop fs */
	assert_int_equal(find(&j, "owner", "nvme-ext4")->result, RESULTS_VERDICT_FAIL);
	assert_int_equal(find(&j, "clean-resume", NULL)->result, RESULTS_VERDICT_PASS);
	assert_int_equal(find(&j, "writers-alive", NULL)->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "writers-alive", NULL)->detail, "sata-xfs-m2b"));
	judgement_free(&j);

	/* knob off: no freeze promised, nothing to hold the writers to */
	c.knob_freeze_filesystems = 0;
	{
		struct judge_resume r = { .trace = &w, .stall = &ops, .events = ev, .n_events = 2,
					  .owner_frozen = -1 };

		assert_int_equal(judge_after_resume(&c, &j, &r, &err), 0);
	}
	assert_int_equal(find(&j, "stall", "sata-xfs")->result, RESULTS_VERDICT_SKIP);
	judgement_free(&j);

	/* knob on, but the kernel never froze sata: the promise is broken */
	c.knob_freeze_filesystems = 1;
	{
		const char *no_sata[] = { "fs_freeze 10000000000 ", "freeze_super 10001000000 nvme0n1p1",
					  "freeze_super_ret 10002000000 ", "fs_freeze_done 10005000000 " };
		struct judge_resume r = { .trace = &w, .stall = &ops, .events = ev, .n_events = 2,
					  .owner_frozen = -1 };

		ev_parse_trace(no_sata, 4, &w);
		assert_int_equal(judge_after_resume(&c, &j, &r, &err), 0);
	}
	assert_int_equal(find(&j, "stall", "sata-xfs")->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "stall", "sata-xfs")->detail, "not frozen"));
	judgement_free(&j);
	ev_stall_ops_free(&ops);
	kevent_parser_free(p);
}

/* The window starts at freeze_super()'s return, with no grace: on sata a store that starts 1 ms
 * after it and is done 0.1 ms later went through the frozen filesystem; on nvme one that started
 * before the return and completed after it (held or preempted across it) did not. */
static void stall_window_starts_at_the_freeze(void **state)
{
	const char *lines[] = {
		"window from_ns=10000000000 to_ns=12003000000",
		"writer=nvme-ext4-m1a tel ops=40 errors=0 longest_ns=2000000000 inflight_start_ns=0 retained=9",
		"writer=nvme-ext4-m1a op start_ns=10001900000 end_ns=10002300000 err=0 kind=store seq=40",
		"writer=nvme-ext4-m1a op start_ns=10002400000 end_ns=12002500000 err=0 kind=store seq=41",
		"writer=sata-xfs-m2b tel ops=41 errors=0 longest_ns=2000000000 inflight_start_ns=0 retained=9",
		"writer=sata-xfs-m2b op start_ns=10005000000 end_ns=10005100000 err=0 kind=store seq=41",
		"writer=sata-xfs-m2b op start_ns=10005200000 end_ns=12001500000 err=0 kind=store seq=42",
	};
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4", .knob_freeze_filesystems = 1 };
	struct frozen_window w;
	struct ev_stall_ops ops;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	struct judge_resume r = { .trace = &w, .stall = &ops, .owner_frozen = -1 };

	(void)state;
	ev_parse_trace(trace_lines, N_TRACE, &w);
	assert_int_equal(ev_parse_stall_ops(lines, sizeof(lines) / sizeof(lines[0]), &ops, &err), 0);
	assert_int_equal(judge_after_resume(&c, &j, &r, &err), 0);
	assert_int_equal(find(&j, "stall", "nvme-ext4")->result, RESULTS_VERDICT_PASS);
	assert_non_null(strstr(find(&j, "stall", "nvme-ext4")->detail,
			       "wrote_while_frozen=0 completed_inside_window=1"));
	assert_int_equal(find(&j, "stall", "sata-xfs")->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "stall", "sata-xfs")->detail, "wrote_while_frozen=1"));
	judgement_free(&j);
	ev_stall_ops_free(&ops);
}

/* A fresh WARNING fails clean-resume; the lab's known one is shown as known, never hiding a
 * fresh one beside it. */
static void known_issues_applied(void **state)
{
	char *path = top_path("known-issues/known-issues.yaml");
	struct known_issues *known = NULL;
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4",
				   .knob_freeze_filesystems = 1 };
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	struct kevent_parser *p;
	struct judge_event ev[2] = { 0 };

	(void)state;
	assert_int_equal(known_load(path, &known, &err), 0);
	c.known = known;
	assert_int_equal(kevent_parser_new("@@RIG@@", &p, &err), 0);
	event(&ev[0], p, "[   12.100000] WARNING: kernel/freezer.c:139 at __set_task_frozen+0x86/0xa0, CPU#1: journal-writer/200");
	event(&ev[1], p, "[   12.200000] WARNING: fs/ext4/inode.c:5000 at ext4_foo+0x1/0x2, CPU#0: sh/1");
	assert_int_equal(judge_clean_resume(&c, &j, ev, 1, &err), 0);
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_FAIL);
	assert_string_equal(j.verdicts[0].known_issue, "lockdep-freezer-set-task-frozen");
	judgement_free(&j);
	assert_int_equal(judge_clean_resume(&c, &j, ev, 2, &err), 0);
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_FAIL);
	assert_null(j.verdicts[0].known_issue);
	judgement_free(&j);
	/* with knob 0 the entry does not apply */
	c.knob_freeze_filesystems = 0;
	assert_int_equal(judge_clean_resume(&c, &j, ev, 1, &err), 0);
	assert_null(j.verdicts[0].known_issue);
	judgement_free(&j);
	kevent_parser_free(p);
	known_free(known);
	free(path);
}

static void no_loss_against_the_acknowledgements_seen(void **state)
{
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4", .knob_freeze_filesystems = 1 };
	const char *verify[] = {
		"journal=nvme-ext4/mmap valid_prefix=120 records=120 torn=0 corrupt=0 holes=0 first_problem=0 integrity=pass id=nvme-ext4-m1a",
		"journal=sata-xfs/mmap valid_prefix=90 records=95 torn=1 corrupt=0 holes=4 first_problem=91 integrity=fail id=sata-xfs-m2b",
		"journal=nvme-ext4/write valid_prefix=7 records=7 torn=0 corrupt=0 holes=0 first_problem=0 integrity=pass id=nvme-ext4-w0ld",
	};
	const char *fsck[] = { "fs=sata-xfs fsck_rc=0", "fs=nvme-ext4 fsck_rc=4",
			       "fs=nvme-ext4 fsck_output: inode 12 has a bad extent" };
	struct acks acked = { 0 };
	struct ev_journals journals;
	struct ev_fsck checks;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(acks_feed(&acked, "[ 9.0] rig-ack: id=nvme-ext4-m1a seq=118 boottime_ns=1", 0, 9.0), 1);
	assert_int_equal(acks_feed(&acked, "[ 9.1] rig-ack: id=sata-xfs-m2b seq=93 boottime_ns=2", 0, 9.1), 1);
	assert_int_equal(acks_feed(&acked, "[ 9.2] rig-ack: id=nvme-ext4-w9z seq=5 boottime_ns=3", 0, 9.2), 1);
	assert_int_equal(acks_feed(&acked, "[ 9.3] rig-ack: id=sata-xfs-w1c seq=5 boottime_ns=4", 0, 9.3), 1);
	ev_parse_verify(verify, 3, &journals);
	ev_parse_fsck(fsck, 3, &checks);
	assert_int_equal(checks.n, 2);
	{
		struct judge_failure f = { .acked = &acked, .journal = true, .journals = &journals,
					   .fsck = &checks };

		assert_int_equal(judge_after_failure(&c, &j, &f, &err), 0);
	}
	assert_int_equal(j.n_verdicts, 4 + 2 + 1);
	/* 118 acknowledged, 120 on disk */
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_PASS);
	/* 93 acknowledged, only 90 intact: lost 3 */
	assert_int_equal(j.verdicts[1].result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[1].detail, "lost=3"));
	/* the file holds an older writer's records: none of this one's survived */
	assert_int_equal(j.verdicts[2].result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[2].detail, "no record of this writer"));
	/* no file at all: nothing could be checked */
	assert_int_equal(j.verdicts[3].result, RESULTS_VERDICT_ERROR);
	assert_int_equal(find(&j, "fsck", "sata-xfs")->result, RESULTS_VERDICT_PASS);
	assert_int_equal(find(&j, "fsck", "nvme-ext4")->result, RESULTS_VERDICT_FAIL);
	assert_int_equal(find(&j, "clean-resume", NULL)->result, RESULTS_VERDICT_PASS);
	judgement_free(&j);

	/* nothing acknowledged before the failure: nothing to lose, nothing proven */
	acks_reset(&acked);
	{
		struct judge_failure f = { .acked = &acked, .journal = true, .journals = &journals };

		assert_int_equal(judge_after_failure(&c, &j, &f, &err), 0);
	}
	assert_int_equal(find(&j, "no-loss", NULL)->result, RESULTS_VERDICT_SKIP);
	judgement_free(&j);
}

/* The metadata writer's directory, read back by meta-verify, is judged like a journal: by its
 * id, and by its file (fs/meta, from the id's -x) when the id file did not survive. */
static void meta_writer_judged_like_a_journal(void **state)
{
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4", .knob_freeze_filesystems = 1 };
	const char *verify[] = {
		"journal=nvme-ext4/meta valid_prefix=300 records=300 torn=0 corrupt=0 holes=0 first_problem=0 integrity=pass id=nvme-ext4-x1a",
		"journal=sata-xfs/meta valid_prefix=41 records=60 torn=0 corrupt=1 holes=18 first_problem=42 integrity=fail id=sata-xfs-x2b",
		"journal=nvme-btrfs/meta valid_prefix=0 records=0 torn=0 corrupt=0 holes=0 first_problem=0 integrity=pass",
	};
	struct acks acked = { 0 };
	struct ev_journals journals;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(acks_feed(&acked, "[ 9.0] rig-ack: id=nvme-ext4-x1a seq=296 boottime_ns=1", 0, 9.0), 1);
	assert_int_equal(acks_feed(&acked, "[ 9.1] rig-ack: id=sata-xfs-x2b seq=58 boottime_ns=2", 0, 9.1), 1);
	assert_int_equal(acks_feed(&acked, "[ 9.2] rig-ack: id=nvme-btrfs-x3c seq=12 boottime_ns=3", 0, 9.2), 1);
	ev_parse_verify(verify, 3, &journals);
	{
		struct judge_failure f = { .acked = &acked, .journal = true, .journals = &journals };

		assert_int_equal(judge_after_failure(&c, &j, &f, &err), 0);
	}
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_PASS);
	assert_non_null(strstr(j.verdicts[0].detail, "writer=nvme-ext4-x1a"));
	assert_int_equal(j.verdicts[1].result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[1].detail, "lost=17"));
	/* no id file: found by fs/meta, and nothing of this writer proven there */
	assert_int_equal(j.verdicts[2].result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[2].detail, "valid_prefix=0"));
	judgement_free(&j);
}

/* rig-dut verify on a mounted filesystem without the writer's file: its creation never reached
 * the disk (knob 0, no sync, a power cut), so every acknowledged record is lost -- a failure, not
 * an error. A file with no line at all (filesystem not mounted) still proves nothing. */
static void no_loss_a_gone_file_is_a_loss(void **state)
{
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4", .knob_freeze_filesystems = 0 };
	const char *verify[] = { "journal=nvme-ext4/mmap gone=1", "journal=sata-xfs/write gone=0" };
	struct acks acked = { 0 };
	struct ev_journals journals;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(acks_feed(&acked, "[ 9.0] rig-ack: id=nvme-ext4-m1a seq=41 boottime_ns=1", 0, 9.0), 1);
	assert_int_equal(acks_feed(&acked, "[ 9.1] rig-ack: id=sata-xfs-w2b seq=7 boottime_ns=2", 0, 9.1), 1);
	assert_int_equal(acks_feed(&acked, "[ 9.2] rig-ack: id=loop-ext4-m3c seq=9 boottime_ns=3", 0, 9.2), 1);
	ev_parse_verify(verify, 2, &journals);
	assert_int_equal(journals.n, 2);
	assert_false(journals.files[0].scanned);
	{
		struct judge_failure f = { .acked = &acked, .journal = true, .journals = &journals };

		assert_int_equal(judge_after_failure(&c, &j, &f, &err), 0);
	}
	assert_int_equal(find(&j, "no-loss", "nvme-ext4")->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "no-loss", "nvme-ext4")->detail, "acked=41: the journal file is gone"));
	/* gone=0 is not the agent's word for a missing file: nothing proven */
	assert_int_equal(find(&j, "no-loss", "sata-xfs")->result, RESULTS_VERDICT_ERROR);
	/* no line for it at all */
	assert_int_equal(find(&j, "no-loss", "loop-ext4")->result, RESULTS_VERDICT_ERROR);
	assert_non_null(strstr(find(&j, "no-loss", "loop-ext4")->detail, "no journal file to verify"));
	judgement_free(&j);
}

/* A systemd board: journald's entries are no-loss evidence like a journal file's scan (rig-dut
 * verify's journald scan, workloads/tests/rig-dut-journald.sh); journald's own check is the
 * journald verdict; a sleep systemd entered gets systemd-sleep, one through sysfs does not. */
static void systemd_board_from_evidence(void **state)
{
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4", .knob_freeze_filesystems = 1 };
	const char *verify[] = {
		"journal=nvme-ext4/journald valid_prefix=3 records=5 torn=0 corrupt=0 holes=1 first_problem=4 id=nvme-ext4-j1a",
	};
	const char *check[] = {
		"journald verify=fail verify_rc=1 files=3 bad_files=1 renamed=1 complaints=2 corrupt_complaints=1",
		"journald verify_output: FAIL: /var/log/journal/x/system.journal~ (Bad message)",
		"journald said: File /var/log/journal/x/system.journal corrupted or uncleanly shut down, renaming and replacing.",
	};
	const char *suspended[] = {
		"result=1 successes=1 slept_s=1 last_failed_step= via=systemctl systemd_result=exit-code "
		"user_freeze=froze user_thaw=thawed sleep_pre_ms=300 sleep_post_ms=80 "
		"systemd_said=\"Failed to put system to sleep. System resumed again: Input/output error\"",
	};
	const char *by_sysfs[] = { "result=0 successes=1 slept_s=1 presync_ms=3 last_failed_step=" };
	struct acks acked = { 0 };
	struct ev_journals journals;
	struct ev_journald journald;
	struct ev_sleep sleep;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };

	(void)state;
	assert_int_equal(acks_feed(&acked, "[ 9.0] rig-ack: id=nvme-ext4-j1a seq=3 boottime_ns=1", 0, 9.0), 1);
	ev_parse_verify(verify, 1, &journals);
	assert_true(journals.files[0].scanned);
	ev_parse_journald(check, 3, &journald);
	assert_int_equal(journald.n_said, 2);
	{
		struct judge_failure f = { .acked = &acked, .journal = true, .journals = &journals,
					   .journald = &journald };

		assert_int_equal(judge_after_failure(&c, &j, &f, &err), 0);
	}
	/* 3 acknowledged, 1..3 there: the hole at 4 is past the promise */
	assert_int_equal(find(&j, "no-loss", "nvme-ext4")->result, RESULTS_VERDICT_PASS);
	assert_int_equal(find(&j, "journald", NULL)->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "journald", NULL)->detail, "1 of 3 files bad"));
	judgement_free(&j);
	/* 5 acknowledged: 4 and 5 are promised, 4 is missing */
	assert_int_equal(acks_feed(&acked, "[ 9.5] rig-ack: id=nvme-ext4-j1a seq=5 boottime_ns=2", 0, 9.5), 1);
	{
		struct judge_failure f = { .acked = &acked, .journal = true, .journals = &journals };

		assert_int_equal(judge_after_failure(&c, &j, &f, &err), 0);
	}
	assert_int_equal(find(&j, "no-loss", "nvme-ext4")->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "no-loss", "nvme-ext4")->detail, "lost=2"));
	judgement_free(&j);

	ev_parse_sleep(suspended, 1, &sleep);
	assert_int_equal(judge_suspend(&c, &j, "suspend", &sleep, JUDGE_SEEN_YES, &err), 0);
	assert_int_equal(find(&j, "suspend", NULL)->result, RESULTS_VERDICT_FAIL);
	assert_int_equal(find(&j, "systemd-sleep", NULL)->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(find(&j, "systemd-sleep", NULL)->detail, "Input/output error"));
	judgement_free(&j);
	ev_parse_sleep(by_sysfs, 1, &sleep);
	assert_int_equal(judge_suspend(&c, &j, "suspend", &sleep, JUDGE_SEEN_YES, &err), 0);
	assert_int_equal(j.n_verdicts, 1);
	judgement_free(&j);
	acks_reset(&acked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(resume_from_evidence),
		cmocka_unit_test(stall_window_starts_at_the_freeze),
		cmocka_unit_test(collect_reply_split_into_its_parts),
		cmocka_unit_test(known_issues_applied),
		cmocka_unit_test(no_loss_against_the_acknowledgements_seen),
		cmocka_unit_test(meta_writer_judged_like_a_journal),
		cmocka_unit_test(no_loss_a_gone_file_is_a_loss),
		cmocka_unit_test(systemd_board_from_evidence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
