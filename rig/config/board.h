/* A board definition (boards/NAME.yaml, documented in boards/README.md), as the rig uses it. */
#ifndef RIG_CONFIG_BOARD_H
#define RIG_CONFIG_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

struct board_disk {
	char *id;             /* QEMU device id, e.g. "nvme0" */
	char *interface;      /* "nvme" | "sata" */
	char *file;           /* backing image (placeholders expanded) */
	unsigned size_mb;     /* created sparse at this size when missing */
	char *seed;           /* prebuilt image: copied to file when file is missing or older */
	bool volatile_cache;  /* served through nbdkit's writeback cache: a power cut drops what
			       * the kernel did not flush (power/drive_cache.h) */
};

struct board_qemu {
	char *binary;         /* qemu-system-x86_64 */
	char *machine;        /* pc | q35 */
	char *accel;          /* tcg | kvm */
	char *tcg_thread;     /* single | multi (tcg only); NULL = single */
	unsigned cpus;
	unsigned memory_mb;
	char *qmp;            /* QMP unix socket path */
	char *firmware;       /* optional -bios/pflash image; NULL = QEMU default (SeaBIOS) */
	struct board_disk *disks;
	size_t n_disks;
	char **extra_args;
	size_t n_extra_args;
};

struct board_gpio_line {
	char *chip;           /* "gpiochip0" or a path; NULL = line unused */
	unsigned offset;
	bool active_low;
};

struct board_gpiod {
	struct board_gpio_line power;   /* relay on the supply: asserted = powered */
	struct board_gpio_line button;  /* power button (opto/relay across the switch) */
	struct board_gpio_line reset;   /* reset line */
	struct board_gpio_line sense;   /* input: asserted while the DUT is up (power LED, PWR_OK) */
	unsigned power_good_ms;         /* after the relay closes, how long until sense must show */
	unsigned press_ms;              /* short press length; default 200 */
	unsigned long_press_ms;         /* forced-off press; default 6000 */
	char *socket;                   /* `rig powerd` unix socket */
};

struct board_command {          /* shell commands per action, e.g. pdudaemon-client */
	char *on, *off, *cycle, *press, *reset, *status;
};

struct board_power {
	char *backend;        /* "qemu" | "gpiod" | "command" */
	struct board_qemu *qemu;
	struct board_gpiod *gpiod;
	struct board_command *command;
};

/* How the kernel under test reaches the board (rig/deploy/deploy.h, boards/README.md). */
struct board_deploy_tftp {
	char *root;           /* the directory the lab's TFTP server serves */
	char *format;         /* "ipxe" | "pxelinux" | "extlinux" */
	char *config;         /* boot configuration, relative to root; NULL = the format's default */
};

struct board_deploy_command {
	char *run;            /* the lab's script: run KERNEL INITRD DTB CMDLINE */
	unsigned timeout_s;
};

struct board_deploy {
	char *backend;        /* "qemu" | "tftp" | "command" | "none"; default qemu for a qemu power
			       * backend, none otherwise */
	struct board_deploy_tftp *tftp;
	struct board_deploy_command *command;
};

struct board_console {
	char *transport;      /* "socket" | "serial" | "pty" */
	char *path;           /* socket path, /dev/ttyUSB0, /dev/pts/N */
	unsigned baud;        /* default 115200 */
	unsigned reattach_s;  /* serial: how long an unplugged adapter may take to come back; 0 = never */
};

struct board_boot {
	char *kernel;
	char *initrd;         /* optional */
	char *dtb;            /* optional device tree (arm64 boards) */
	char *cmdline;
	char *ready_pattern;  /* console line that says the DUT agent is up */
};

struct board_filesystem {
	char *name;           /* "nvme-ext4": the key verdicts are stored under */
	char *type;           /* ext4 | xfs | btrfs | ... */
	char *device;         /* block device, or an image file for loop mounts */
	char *mount;
	char *options;        /* mount -o options (e.g. barrier=0), NULL = the defaults */
};

struct board_timeouts {        /* seconds per phase; 0 in the file = default */
	unsigned boot, command, suspend, resume, hibernate, restore;
};

/* How far an RTC-woken sleep may end from its alarm before the wake-time verdict fails it
 * (judge/wake_time.h): earlier than early_ms is a premature wake, later than late_ms a late one;
 * rtc_source: the RTC's wakeup source counts every RTC wake, so a quiet one is premature too. */
struct board_wake_timing {
	unsigned early_ms, late_ms;
	bool rtc_source;
};

struct board {
	char *path;           /* file it was loaded from */
	char *name;
	char *description;
	char *arch;
	struct board_boot boot;
	struct board_console console;
	struct board_power power;
	struct board_deploy deploy;
	char **sleep_states;  /* subset of s2idle, shallow, deep, disk */
	size_t n_sleep_states;
	char **wake_sources;  /* subset of rtc, qmp, button, serial */
	size_t n_wake_sources;
	char **hibernate_modes;  /* /sys/power/disk modes that work; none listed = shutdown only */
	size_t n_hibernate_modes;
	struct board_filesystem *filesystems;
	size_t n_filesystems;
	char *swap;
	char *init;           /* "busybox" (the initramfs board) | "systemd" (journald, systemctl) */
	struct board_timeouts timeouts;
	struct board_wake_timing wake_timing;
};

/* Placeholders expanded in every path and in cmdline: {run} = run directory, {out} = build
 * output directory, {top} = project top. */
struct board_paths {
	const char *run;
	const char *out;
	const char *top;
};

/* Load and validate a board file. On error returns -1 with err naming file, line and key
 * (class RIG_EXIT_USAGE). *out must be released with board_free(). */
int board_load(const char *path, const struct board_paths *paths, struct board **out,
	       struct rig_err *err);
void board_free(struct board *board);

#endif
