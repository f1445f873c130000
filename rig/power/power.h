/* Power control of a board under test, whatever drives it (QEMU, GPIO relays, lab PDU commands).
 *
 * The engine and the CLI only talk to this interface; power_open() picks the backend named by
 * board->power.backend.  Every function returns 0 on success and -1 with err filled: class
 * RIG_EXIT_INFRA when the machinery failed (QEMU missing, socket gone, command timed out) and
 * RIG_EXIT_USAGE when the board file asks for something the backend cannot do.
 *
 * QEMU start contract: power_on() starts QEMU with its CPUs stopped (-S), so that nothing the
 * guest prints is lost before the console is attached.  The caller attaches the console (its
 * socket exists once power_on() returned) and then calls power_resume_cpus().  Backends without
 * that notion (real hardware) make power_resume_cpus() a no-op.  power_cycle() follows the
 * same contract. */
#ifndef RIG_POWER_POWER_H
#define RIG_POWER_POWER_H

#include "config/board.h"
#include "util/err.h"

enum power_state {
	POWER_OFF,
	POWER_RUNNING,    /* powered and executing; printed as "on" */
	POWER_SUSPENDED,  /* in a sleep state (QEMU: S3 suspended) */
	POWER_PAUSED,     /* powered but CPUs stopped: hung (or not yet started) */
	POWER_UNKNOWN,    /* powered, but the backend cannot tell more */
};

/* "off", "on", "suspended", "paused", "unknown". */
const char *power_state_name(enum power_state state);
/* Inverse of power_state_name(); also accepts "running". Returns -1 for other words. */
int power_state_parse(const char *word, enum power_state *state);

struct power;

int power_open(const struct board *board, const char *run_dir, struct power **out,
	       struct rig_err *err);
/* Release the handle.  It does not switch the board: a QEMU keeps running (a later
 * power_open() finds it through <run>/qemu.pid); GPIO lines held directly revert. */
void power_close(struct power *power);
const char *power_backend_name(const struct power *power);

int power_on(struct power *power, struct rig_err *err);
int power_resume_cpus(struct power *power, struct rig_err *err);
/* A hard power cut: the guest gets no chance to shut down. */
int power_off(struct power *power, struct rig_err *err);
int power_cycle(struct power *power, struct rig_err *err);
/* Press the power button for ms milliseconds (0 = the board's default press length). */
int power_press(struct power *power, unsigned ms, struct rig_err *err);
int power_reset(struct power *power, struct rig_err *err);
int power_status(struct power *power, enum power_state *state, struct rig_err *err);
/* Optional operations: RIG_EXIT_USAGE "not supported" when the backend lacks them. */
int power_wakeup(struct power *power, struct rig_err *err);
int power_inject_hang(struct power *power, struct rig_err *err);
int power_sysrq(struct power *power, char key, struct rig_err *err);
/* Did the board report event (QMP names: SUSPEND, WAKEUP, RESET, SHUTDOWN, STOP, RESUME,
 * POWERDOWN) at or after the wall-clock time since (wall_clock_seconds(), util/clock.h: QEMU
 * stamps its events with the wall clock)?  Waits up to timeout_ms.
 * Returns 1 if so, 0 on timeout, -1 on error. */
int power_wait_event(struct power *power, const char *event, double since, unsigned timeout_ms,
		     struct rig_err *err);
/* Is the power controller still there?  0 yes (or nothing to check); -1 (RIG_EXIT_INFRA) when
 * it went away mid-run -- a killed `rig powerd`, whose lines then revert -- with err saying so
 * and in which state that left the board's relay.  Cheap: the engine calls it while it waits. */
int power_check(struct power *power, struct rig_err *err);
/* How many requests the board's disks have completed so far (reads, writes, flushes), as the
 * host sees them: 1 with *ops set, 0 when the backend cannot tell (real boards), -1 on error.
 * The engine lets a phase overrun its timeout while this keeps moving. */
int power_disk_ops(struct power *power, unsigned long long *ops, struct rig_err *err);
/* Whether power_wait_event() is meaningful for this backend. */
int power_has_events(const struct power *power);
/* Whether the board runs as a process on this host (QEMU), so the host's CPU accounting of it
 * means something (engine/host_cpu.h); false for real hardware. */
int power_runs_on_host(const struct power *power);
/* That process's pid while it runs, else 0 (and always 0 for real hardware). */
long power_host_pid(struct power *power);

#endif
