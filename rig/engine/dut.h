/*
 * The typed board client: every rig-dut command the engine sends (workloads/agent/rig-dut.sh),
 * built here from typed arguments and answered with the evidence records of judge/evidence.h
 * (parsed by the same code that reads them from a LAVA log). The engine's other files never
 * write a board command themselves.
 *
 * Every call runs through the session's agent (a reply is verified by its checksum, a corrupt
 * one retried) with the timeout given; an infrastructure error is -1 with err set.
 */
#ifndef RIG_ENGINE_DUT_H
#define RIG_ENGINE_DUT_H

#include <stdbool.h>

#include "config/plan.h"
#include "engine/session.h"
#include "judge/evidence.h"
#include "judge/fio.h"
#include "judge/timeline.h"

/* rig-dut info */
int dut_identity(struct session *s, unsigned timeout_s, struct ev_identity *out,
		 struct rig_err *err);
/* rig-dut knob freeze_filesystems|sync_on_suspend 0|1 */
int dut_set_knob(struct session *s, unsigned timeout_s, const char *knob, int value,
		 struct rig_err *err);
/* rig-dut trace-setup [S_ID_OFFSET]: kprobes on the kernel's freeze and thaw (offset < 0:
 * without device names). */
int dut_trace_setup(struct session *s, unsigned timeout_s, long s_id_offset, struct rig_err *err);
/* rig-dut start-workloads KIND...: *summary gets the board's one line ("workloads=N"). */
int dut_start_workloads(struct session *s, unsigned timeout_s, char *const *kinds, size_t n,
			char *summary, size_t size, struct rig_err *err);

/* The sleep commands return only after the board is back: they are sent, and the engine waits
 * for their reply while it watches the board (reply initialised here; parse it with
 * ev_parse_sleep once it has come). */
/* systemctl_verb: enter the sleep through `systemctl VERB` (sleep_via_verb()); NULL: sysfs. */
int dut_send_suspend(struct session *s, enum sleep_mode mode, bool rtc_wake, unsigned seconds,
		     const char *systemctl_verb, struct agent_reply *reply, struct rig_err *err);
/* mode: /sys/power/disk's (rig-dut refuses one the kernel does not list); systemctl: through
 * `systemctl hibernate` instead of /sys/power/state. */
int dut_send_hibernate(struct session *s, enum hibernate_mode mode, bool systemctl,
		       struct agent_reply *reply, struct rig_err *err);
/* rig-dut pm-test LEVEL MODE, waited for: 0 replied (*out filled), 1 no reply in time (a hang),
 * -1 error. */
int dut_pm_test(struct session *s, unsigned timeout_s, enum pm_test_level level,
		enum sleep_mode mode, struct ev_sleep *out, struct rig_err *err);

/* After a resume, in one round trip (rig-dut collect): the freeze trace into window and, when
 * alive and stall are given (a plan with workloads), the writers' liveness and their telemetry
 * around the freeze (ev_stall_ops_free it). */
int dut_collect_after_resume(struct session *s, unsigned timeout_s, struct frozen_window *window,
			     struct ev_alive *alive, struct ev_stall_ops *stall,
			     struct rig_err *err);
/* Plans with `timeline: true`: the kernel's power events traced from now on (after every boot);
 * the board's answer ("timeline=on ..." or "timeline=unavailable reason=...") into line. */
int dut_timeline_setup(struct session *s, unsigned timeout_s, char *line, size_t size,
		       struct rig_err *err);
/* After a resume: the board's summary of those events since the last read (timeline_free it). */
int dut_timeline_read(struct session *s, unsigned timeout_s, struct timeline *out,
		      struct rig_err *err);
/* rig-dut klog: the board's kernel log lines stamped after since_ktime (and before until_ktime,
 * unless negative), into reply (free it). */
int dut_klog(struct session *s, unsigned timeout_s, double since_ktime, double until_ktime,
	     struct agent_reply *reply, struct rig_err *err);

/* rig-dut fsfreeze NAME freeze|thaw|state; *frozen (may be NULL) gets the state it reports. */
int dut_fsfreeze(struct session *s, unsigned timeout_s, const char *fs, const char *action,
		 int *frozen, struct rig_err *err);

/* Around a forced failed resume. */
int dut_fio_checkpoint(struct session *s, unsigned timeout_s, struct fio_acks *out,
		       struct rig_err *err);
int dut_fio_verify(struct session *s, unsigned timeout_s, const struct fio_ack *k, char *line,
		   size_t size, struct rig_err *err);
int dut_verify(struct session *s, unsigned timeout_s, struct ev_journals *out, struct rig_err *err);
/* rig-dut journald-check (systemd boards): journald's own view of its journal. */
int dut_journald_check(struct session *s, unsigned timeout_s, struct ev_journald *out,
		       struct rig_err *err);
int dut_fsck(struct session *s, unsigned timeout_s, struct ev_fsck *out, struct rig_err *err);

#endif
