/* Field tables for boards/NAME.yaml: keys, types, allowed values and defaults, in one place. */
#include "config/board_schema.h"

#include <stddef.h>

#define STR(k, type, member, ...) \
	{ .key = (k), .kind = YF_STRING, .offset = offsetof(type, member), __VA_ARGS__ }
#define UINT(k, type, member, ...) \
	{ .key = (k), .kind = YF_UINT, .offset = offsetof(type, member), __VA_ARGS__ }
#define LIST(k, type, member, count, ...)                                              \
	{ .key = (k), .kind = YF_STRING_LIST, .offset = offsetof(type, member),        \
	  .count_offset = offsetof(type, count), __VA_ARGS__ }
#define SUB(k, kind_, type, member, sub, ...) \
	{ .key = (k), .kind = (kind_), .offset = offsetof(type, member), .schema = &(sub), __VA_ARGS__ }
#define TIMEOUT(member, seconds)                                                          \
	UINT(#member, struct board_timeouts, member, .dflt = (seconds), .zero_is_default = true, \
	     .min = 1, .max = 86400)

static const char *const backends[] = { "qemu", "gpiod", "command", NULL };
static const char *const transports[] = { "socket", "serial", "pty", NULL };
static const char *const sleep_states[] = { "s2idle", "shallow", "deep", "disk", NULL };
static const char *const wake_sources[] = { "rtc", "qmp", "button", "serial", NULL };
static const char *const hibernate_modes[] = { "shutdown", "platform", "reboot", "suspend",
					       "test_resume", NULL };
static const char *const disk_interfaces[] = { "nvme", "sata", NULL };
static const char *const qemu_machines[] = { "pc", "q35", NULL };
static const char *const qemu_accels[] = { "tcg", "kvm", NULL };
static const char *const tcg_threads[] = { "single", "multi", NULL };
static const char *const inits[] = { "busybox", "systemd", NULL };
static const char *const deploy_backends[] = { "qemu", "tftp", "command", "none", NULL };
static const char *const tftp_formats[] = { "ipxe", "pxelinux", "extlinux", NULL };

static const struct yfield disk_fields[] = {
	STR("id", struct board_disk, id, .required = true),
	STR("interface", struct board_disk, interface, .required = true, .values = disk_interfaces),
	STR("file", struct board_disk, file, .required = true),
	UINT("size_mb", struct board_disk, size_mb, .max = 16u << 20),
	STR("seed", struct board_disk, seed),
	{ .key = "volatile_cache", .kind = YF_BOOL, .offset = offsetof(struct board_disk, volatile_cache) },
};
static const struct yschema disk_schema = YSCHEMA(disk_fields, struct board_disk);

static const struct yfield qemu_fields[] = {
	STR("binary", struct board_qemu, binary, .dflt_str = "qemu-system-x86_64"),
	STR("machine", struct board_qemu, machine, .dflt_str = "pc", .values = qemu_machines),
	STR("accel", struct board_qemu, accel, .dflt_str = "tcg", .values = qemu_accels),
	/* No default here: a tcg_thread given with accel kvm is refused; the backend picks single. */
	STR("tcg_thread", struct board_qemu, tcg_thread, .values = tcg_threads),
	UINT("cpus", struct board_qemu, cpus, .dflt = 1, .min = 1, .max = 64),
	UINT("memory_mb", struct board_qemu, memory_mb, .dflt = 512, .min = 64, .max = 1u << 20),
	STR("qmp", struct board_qemu, qmp),  /* NULL: the backend uses {run}/qmp.sock */
	STR("firmware", struct board_qemu, firmware),
	{ .key = "disks", .kind = YF_MAPPING_LIST, .offset = offsetof(struct board_qemu, disks),
	  .count_offset = offsetof(struct board_qemu, n_disks), .schema = &disk_schema },
	LIST("extra_args", struct board_qemu, extra_args, n_extra_args, .allow_duplicates = true),
};
static const struct yschema qemu_schema = YSCHEMA(qemu_fields, struct board_qemu);

static const struct yfield gpio_line_fields[] = {
	STR("chip", struct board_gpio_line, chip, .required = true),
	UINT("offset", struct board_gpio_line, offset, .required = true, .max = 1023),
	{ .key = "active_low", .kind = YF_BOOL,
	  .offset = offsetof(struct board_gpio_line, active_low) },
};
static const struct yschema gpio_line_schema = YSCHEMA(gpio_line_fields, struct board_gpio_line);

static const struct yfield gpiod_fields[] = {
	SUB("power", YF_MAPPING, struct board_gpiod, power, gpio_line_schema),
	SUB("button", YF_MAPPING, struct board_gpiod, button, gpio_line_schema),
	SUB("reset", YF_MAPPING, struct board_gpiod, reset, gpio_line_schema),
	SUB("sense", YF_MAPPING, struct board_gpiod, sense, gpio_line_schema),
	UINT("power_good_ms", struct board_gpiod, power_good_ms, .dflt = 3000,
	     .zero_is_default = true, .max = 600000),
	UINT("press_ms", struct board_gpiod, press_ms, .dflt = 200, .zero_is_default = true,
	     .max = 60000),
	UINT("long_press_ms", struct board_gpiod, long_press_ms, .dflt = 6000,
	     .zero_is_default = true, .max = 60000),
	STR("socket", struct board_gpiod, socket),
};
static const struct yschema gpiod_schema = YSCHEMA(gpiod_fields, struct board_gpiod);

static const struct yfield command_fields[] = {
	/* run with sh -c (power/shell.c): placeholders expand shell-quoted */
	STR("on", struct board_command, on, .shell = true),
	STR("off", struct board_command, off, .shell = true),
	STR("cycle", struct board_command, cycle, .shell = true),
	STR("press", struct board_command, press, .shell = true),
	STR("reset", struct board_command, reset, .shell = true),
	STR("status", struct board_command, status, .shell = true),
};
static const struct yschema command_schema = YSCHEMA(command_fields, struct board_command);

static const struct yfield power_fields[] = {
	STR("backend", struct board_power, backend, .required = true, .values = backends),
	SUB("qemu", YF_MAPPING_PTR, struct board_power, qemu, qemu_schema),
	SUB("gpiod", YF_MAPPING_PTR, struct board_power, gpiod, gpiod_schema),
	SUB("command", YF_MAPPING_PTR, struct board_power, command, command_schema),
};
static const struct yschema power_schema = YSCHEMA(power_fields, struct board_power);

static const struct yfield deploy_tftp_fields[] = {
	STR("root", struct board_deploy_tftp, root, .required = true),
	STR("format", struct board_deploy_tftp, format, .required = true, .values = tftp_formats),
	STR("config", struct board_deploy_tftp, config),
};
static const struct yschema deploy_tftp_schema = YSCHEMA(deploy_tftp_fields, struct board_deploy_tftp);

static const struct yfield deploy_command_fields[] = {
	STR("run", struct board_deploy_command, run, .required = true),
	UINT("timeout_s", struct board_deploy_command, timeout_s, .dflt = 300,
	     .zero_is_default = true, .min = 1, .max = 86400),
};
static const struct yschema deploy_command_schema =
	YSCHEMA(deploy_command_fields, struct board_deploy_command);

static const struct yfield deploy_fields[] = {
	STR("backend", struct board_deploy, backend, .values = deploy_backends),
	SUB("tftp", YF_MAPPING_PTR, struct board_deploy, tftp, deploy_tftp_schema),
	SUB("command", YF_MAPPING_PTR, struct board_deploy, command, deploy_command_schema),
};
static const struct yschema deploy_schema = YSCHEMA(deploy_fields, struct board_deploy);

static const struct yfield console_fields[] = {
	STR("transport", struct board_console, transport, .required = true, .values = transports),
	STR("path", struct board_console, path),
	UINT("baud", struct board_console, baud, .dflt = 115200, .zero_is_default = true,
	     .min = 50, .max = 4000000),
	UINT("reattach_s", struct board_console, reattach_s, .dflt = 30, .max = 3600),
};
static const struct yschema console_schema = YSCHEMA(console_fields, struct board_console);

static const struct yfield boot_fields[] = {
	STR("kernel", struct board_boot, kernel),
	STR("initrd", struct board_boot, initrd),
	STR("dtb", struct board_boot, dtb),
	STR("cmdline", struct board_boot, cmdline),
	STR("ready_pattern", struct board_boot, ready_pattern, .dflt_str = "@@RIG@@ agent ready"),
};
static const struct yschema boot_schema = YSCHEMA(boot_fields, struct board_boot);

/* `sleep:` is a YAML mapping whose keys live directly in struct board: offsets are board's. */
static const struct yfield sleep_fields[] = {
	LIST("states", struct board, sleep_states, n_sleep_states, .values = sleep_states),
	LIST("wake", struct board, wake_sources, n_wake_sources, .values = wake_sources),
	LIST("hibernate_modes", struct board, hibernate_modes, n_hibernate_modes,
	     .values = hibernate_modes),
};
static const struct yschema sleep_schema = YSCHEMA(sleep_fields, struct board);

static const struct yfield filesystem_fields[] = {
	STR("name", struct board_filesystem, name, .required = true),
	STR("type", struct board_filesystem, type, .required = true),
	STR("device", struct board_filesystem, device, .required = true),
	STR("mount", struct board_filesystem, mount, .required = true),
	STR("options", struct board_filesystem, options),
};
static const struct yschema filesystem_schema = YSCHEMA(filesystem_fields, struct board_filesystem);

static const struct yfield timeout_fields[] = {
	TIMEOUT(boot, 180),   TIMEOUT(command, 60),    TIMEOUT(suspend, 60),
	TIMEOUT(resume, 60),  TIMEOUT(hibernate, 240), TIMEOUT(restore, 240),
};
static const struct yschema timeout_schema = YSCHEMA(timeout_fields, struct board_timeouts);

/* Defaults (boards/README.md): the RTC counts whole seconds, so an alarm armed N s ahead fires
 * after N-1 to N s, and an x86 board in S3 learns how long it slept from the same RTC (the
 * clocksource stops): up to 2 s short without anything wrong, hence 2500 early. Late: 5000. */
static const struct yfield wake_timing_fields[] = {
	UINT("early_ms", struct board_wake_timing, early_ms, .dflt = 2500, .max = 3600000),
	UINT("late_ms", struct board_wake_timing, late_ms, .dflt = 5000, .max = 3600000),
	/* rtc_cmos counts every RTC wake on its wakeup source (ACPI's RTC event); an RTC driver
	 * that never reports one would make every RTC wake look premature: false there */
	{ .key = "rtc_source", .kind = YF_BOOL, .offset = offsetof(struct board_wake_timing, rtc_source),
	  .dflt = true },
};
static const struct yschema wake_timing_schema =
	YSCHEMA(wake_timing_fields, struct board_wake_timing);

static const struct yfield board_fields[] = {
	STR("name", struct board, name, .required = true),
	STR("description", struct board, description),
	STR("arch", struct board, arch),
	SUB("boot", YF_MAPPING, struct board, boot, boot_schema),
	SUB("console", YF_MAPPING, struct board, console, console_schema, .required = true),
	SUB("power", YF_MAPPING, struct board, power, power_schema, .required = true),
	SUB("deploy", YF_MAPPING, struct board, deploy, deploy_schema),
	{ .key = "sleep", .kind = YF_MAPPING, .offset = 0, .schema = &sleep_schema },
	{ .key = "filesystems", .kind = YF_MAPPING_LIST, .offset = offsetof(struct board, filesystems),
	  .count_offset = offsetof(struct board, n_filesystems), .schema = &filesystem_schema },
	STR("swap", struct board, swap),
	STR("init", struct board, init, .dflt_str = "busybox", .values = inits),
	SUB("timeouts", YF_MAPPING, struct board, timeouts, timeout_schema),
	SUB("wake_timing", YF_MAPPING, struct board, wake_timing, wake_timing_schema),
};
const struct yschema board_schema = YSCHEMA(board_fields, struct board);
