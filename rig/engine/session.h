/* A session with one board: its power, its console, and everything read from the console
 * since the last drain (kernel events, acknowledgements of the workloads). All console reading
 * goes through session_pump() so no line escapes the event log or the acknowledgement table. */
#ifndef RIG_ENGINE_SESSION_H
#define RIG_ENGINE_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "config/board.h"
#include "console/agent_reply.h"
#include "console/console.h"
#include "console/events.h"
#include "deploy/deploy.h"
#include "judge/acks.h"
#include "judge/judge.h"
#include "judge/starvation.h"
#include "power/power.h"
#include "util/err.h"

struct session {
	struct board *board;
	char run_dir[512];
	char console_log[600];
	struct power *power;
	struct deploy *deploy;         /* puts the kernel under test where the board boots it from */
	struct console *console;
	struct acks acks;
	struct judge_event *events;  /* since the last session_events_drain() */
	size_t n_events, cap_events;
	bool agent_ready;
	int boots;                     /* kernel boots seen ("Linux version") */
	double last_line_at;
	const char *watch;             /* a substring to look for in every line (NULL = none) */
	double watch_hit_at;           /* host time of the last line containing it, 0 = not yet */
	FILE *progress;                /* where phase messages go; NULL = quiet */
	/* Set by SIGINT/SIGTERM/SIGHUP/SIGQUIT (rig run's handler); the boot wait checks it every
	 * slice, so a signal ends it within ~0.1 s instead of at the boot timeout. NULL = never. */
	const volatile sig_atomic_t *stop;
	/* The last board command got no reply in time, even with the time a starved host earns
	 * it (engine/command_patience.h): the cycle's infrastructure error may be the host's doing
	 * (engine/starvation.h judges command_window, the host's view of that command, when
	 * command_window_known: a board on this host). */
	bool command_timed_out, command_window_known;
	struct starve_window command_window;
};

int session_open(struct board *board, const char *run_dir, FILE *progress, struct session **out,
		 struct rig_err *err);
/* Powers off (a QEMU board's process ends) and frees. */
void session_close(struct session *s);

/* Deploy the kernel with extra_cmdline appended to the board's command line for this boot (may
 * be NULL; a board whose deploy cannot set it refuses one), power on, attach the console, start the CPUs, wait for the agent. A timeout is a hang in phase
 * "boot": returns 1. 0 = agent ready, 2 = stopped (s->stop set), -1 = infrastructure error. */
int session_boot(struct session *s, const char *extra_cmdline, unsigned timeout_s,
		 struct rig_err *err);
/* The console of the last boot (and of everything since) against judge/boot_health.h: a lost
 * interrupt the kernel disabled, a lockup, an RCU stall, an oops or a panic is an
 * infrastructure error (-1) naming those lines; 0 when healthy. Reads the events, drains none. */
int session_check_boot_health(struct session *s, struct rig_err *err);
/* Power on and attach the console without waiting for anything (a hibernated board restores
 * its old userspace instead of starting the agent). */
int session_power_on(struct session *s, const char *extra_cmdline, struct rig_err *err);
/* The console went away (a QEMU board that powered itself off): forget it. */
void session_detach_console(struct session *s);
/* Hard power cut (console detached; it is re-attached by the next boot). */
int session_power_off(struct session *s, struct rig_err *err);

/* Read console lines for up to timeout_ms (0 = what is already there), feeding the event log,
 * the acknowledgement table and reply (may be NULL). Returns 1 when reply finished, 0 when the
 * time ran out, -1 when the console failed. */
int session_pump(struct session *s, int timeout_ms, struct agent_reply *reply,
		 struct rig_err *err);
/* Send a command to the agent without waiting; reply is initialised for it. */
int session_send(struct session *s, const char *cmd, struct agent_reply *reply,
		 struct rig_err *err);
/* Send and wait. 0 = verified reply; 1 = no reply in time (a hang); -1 = error. reply must be
 * freed with agent_reply_free() in every case. */
int session_exec(struct session *s, const char *cmd, unsigned timeout_s, struct agent_reply *reply,
		 struct rig_err *err);
/* session_exec until the reply is verified (a corrupt one — a kernel message ate a line — is
 * retried, 3 attempts in all). 0 = verified reply in *reply (free it); -1 with err otherwise
 * (no reply in time, console error, corrupt every time), reply already freed. */
int session_exec_verified(struct session *s, const char *cmd, unsigned timeout_s,
			  struct agent_reply *reply, struct rig_err *err);
/* session_exec that retries a corrupt reply and returns the output's first line (or "") in
 * buf. Any failure is reported as an error. */
int session_query(struct session *s, const char *cmd, unsigned timeout_s, char *buf, size_t size,
		  struct rig_err *err);

/* Look for a substring in the lines from now on (s2idle has no QMP event and no S-state line:
 * "PM: suspend-to-idle" with pm_debug_messages is the sign it went to sleep). */
void session_watch(struct session *s, const char *substring);

/* Events since the last drain; the caller takes ownership of the array. */
struct judge_event *session_events_drain(struct session *s, size_t *n);
void session_events_free(struct judge_event *events, size_t n);

/* Print a progress message (timestamped) to s->progress. */
void session_say(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
