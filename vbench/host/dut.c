#include "dut.h"

#include <stdio.h>
#include <string.h>

#include "hostlog.h"
#include "util/clock.h"

#define CONSOLE_CONNECT_MS 30000
#define STATUS_EVERY_MS 250

#define say(d, ...) host_log((d)->log, "dut: " __VA_ARGS__)

int dut_open(struct dut *d, struct board *board, const char *run_dir, struct cable *cable,
	     unsigned long_press_ms, FILE *log)
{
	struct rig_err err;

	memset(d, 0, sizeof(*d));
	d->board = board;
	d->cable = cable;
	d->long_press_ms = long_press_ms;
	d->log = log;
	snprintf(d->console_socket, sizeof(d->console_socket), "%s", board->console.path);
	snprintf(d->run_dir, sizeof(d->run_dir), "%s", run_dir);
	if (power_open(board, run_dir, &d->power, &err) < 0) {
		say(d, "cannot open the DUT's power: %s", err.msg);
		return -1;
	}
	return 0;
}

void dut_close(struct dut *d)
{
	struct rig_err ignored;

	if (!d->power)
		return;
	cable_disconnect_dut(d->cable);
	(void)power_off(d->power, &ignored);
	power_close(d->power);
	d->power = NULL;
}

/* QEMU starts each serial log afresh: the last start's is kept as qemu-serial.N.log, so the
 * boot that went wrong is still there after the next one. */
static void keep_serial_log(const struct dut *d)
{
	char from[4200], to[4200];

	snprintf(from, sizeof(from), "%s/qemu-serial.log", d->run_dir);
	snprintf(to, sizeof(to), "%s/qemu-serial.%u.log", d->run_dir, d->starts);
	(void)rename(from, to);
}

/* Power on with the cable plugged in before the CPUs run: not a byte of the boot is lost. */
static void start(struct dut *d, const char *why)
{
	struct rig_err err;

	say(d, "%s: starting the DUT (start %u)", why, d->starts + 1);
	keep_serial_log(d);
	if (power_on(d->power, &err) < 0) {
		say(d, "power on failed: %s", err.msg);
		return;
	}
	if (cable_connect_dut(d->cable, d->console_socket, CONSOLE_CONNECT_MS) < 0)
		say(d, "cannot plug the cable into %s", d->console_socket);
	if (power_resume_cpus(d->power, &err) < 0)
		say(d, "resume CPUs failed: %s", err.msg);
	d->up = true;
	d->starts++;
}

static void cut(struct dut *d, const char *why)
{
	struct rig_err err;

	say(d, "%s: the DUT loses power", why);
	cable_disconnect_dut(d->cable);
	if (power_off(d->power, &err) < 0)
		say(d, "power off failed: %s", err.msg);
	d->up = false;
}

static enum power_state state_now(struct dut *d)
{
	enum power_state st = POWER_OFF;
	struct rig_err err;

	if (power_status(d->power, &st, &err) < 0)
		say(d, "status failed: %s", err.msg);
	return st;
}

void dut_relay(struct dut *d, bool closed)
{
	if (closed == d->relay_closed)
		return;
	d->relay_closed = closed;
	if (closed && state_now(d) == POWER_OFF)
		start(d, "relay closed");
	else if (!closed) {
		d->cuts++;
		cut(d, "relay opened");
	}
}

void dut_button(struct dut *d, bool down)
{
	struct rig_err err;
	enum power_state st;

	if (down == d->button_down)
		return;
	d->button_down = down;
	if (!down) {
		say(d, "button released after %lld ms", monotonic_ms() - d->button_down_at);
		return;
	}
	d->button_down_at = monotonic_ms();
	d->forced_off = false;
	d->presses++;
	st = state_now(d);
	if (st == POWER_OFF) {
		if (d->relay_closed)
			start(d, "button pressed while off");
		else
			say(d, "button pressed without power: nothing happens");
	} else if (st == POWER_SUSPENDED) {
		say(d, "button pressed while suspended: wake");
		d->wakes++;
		if (power_wakeup(d->power, &err) < 0)
			say(d, "wakeup failed: %s", err.msg);
	} else {
		say(d, "button pressed while running: ACPI power button");
		if (power_press(d->power, 0, &err) < 0)
			say(d, "press failed: %s", err.msg);
	}
}

bool dut_tick(struct dut *d)
{
	long long now = monotonic_ms();
	bool was_up = d->up;

	if (d->button_down && !d->forced_off && d->up &&
	    now - d->button_down_at >= (long long)d->long_press_ms) {
		d->forced_off = true;
		d->forced_offs++;
		cut(d, "button held: forced off");
	}
	if (now >= d->next_status_at) {
		d->next_status_at = now + STATUS_EVERY_MS;
		if (d->up && state_now(d) == POWER_OFF) {
			say(d, "the DUT powered itself off");
			cable_disconnect_dut(d->cable);
			d->up = false;
		}
	}
	return d->up != was_up;
}
