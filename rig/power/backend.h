/* What a power backend implements.  Only rig/power/ includes this file. */
#ifndef RIG_POWER_BACKEND_H
#define RIG_POWER_BACKEND_H

#include "power/power.h"

struct power_ops {
	const char *name;
	/* Set power->priv; power->board and power->run_dir are already filled. */
	int (*open)(struct power *power, struct rig_err *err);
	int (*on)(struct power *power, struct rig_err *err);
	int (*resume_cpus)(struct power *power, struct rig_err *err);          /* may be NULL */
	int (*off)(struct power *power, struct rig_err *err);                  /* hard power cut */
	int (*cycle)(struct power *power, struct rig_err *err);
	int (*press)(struct power *power, unsigned ms, struct rig_err *err);
	int (*reset)(struct power *power, struct rig_err *err);
	int (*status)(struct power *power, enum power_state *state, struct rig_err *err);
	int (*wakeup)(struct power *power, struct rig_err *err);               /* may be NULL */
	int (*inject_hang)(struct power *power, struct rig_err *err);          /* may be NULL */
	int (*sysrq)(struct power *power, char key, struct rig_err *err);      /* may be NULL */
	int (*wait_event)(struct power *power, const char *event, double since,
			  unsigned timeout_ms, struct rig_err *err);           /* may be NULL */
	/* Is whatever drives the board still there (rig powerd holding the lines)? 0 yes, -1
	 * with err saying what is lost and in which state the board was left. May be NULL. */
	int (*check)(struct power *power, struct rig_err *err);
	/* Cumulative requests the board's disks completed (power/blockstats.h). May be NULL. */
	int (*disk_ops)(struct power *power, unsigned long long *ops, struct rig_err *err);
	/* The host process that runs the board (QEMU), 0 when it is not running. May be NULL: a
	 * real board has none. */
	long (*host_pid)(struct power *power);
	void (*close)(struct power *power);
};

struct power {
	const struct power_ops *ops;
	const struct board *board;
	char *run_dir;        /* NULL: the backend picks (QEMU: the QMP socket's directory) */
	void *priv;
};

extern const struct power_ops power_qemu_ops;
extern const struct power_ops power_gpiod_ops;
extern const struct power_ops power_command_ops;

/* Allocate a handle for ops without opening it (backends that open in a special way). */
struct power *power_alloc(const struct power_ops *ops, const struct board *board,
			  const char *run_dir, struct rig_err *err);

#endif
