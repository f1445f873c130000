/* The DUT as the bench's relay board and power button see it: a QEMU board (boards/qemu.yaml)
 * whose power the wiring's GPIO edges switch.
 *
 *   relay closed     power applied: the board starts (as a dev board or a PC set to "power on
 *                    after AC loss" does)
 *   relay open       power cut: QEMU is killed, nothing is flushed
 *   button pressed   off with power applied: it starts; suspended (S3): it wakes; running: the
 *                    ACPI power button, which wakes it from s2idle
 *   button held      for long_press_ms: forced off, like holding a laptop's power button
 *
 * power-good (the LED the rig senses) is high while QEMU runs, asleep or awake. */
#ifndef VBENCH_DUT_H
#define VBENCH_DUT_H

#include <stdbool.h>
#include <stdio.h>

#include "cable.h"
#include "config/board.h"
#include "power/power.h"

struct dut {
	struct board *board;
	struct power *power;
	struct cable *cable;
	char console_socket[4096];
	char run_dir[4096];           /* the DUT QEMU's: its serial log is kept per start */
	bool relay_closed, button_down, forced_off;
	long long button_down_at;     /* monotonic ms */
	unsigned long_press_ms;
	bool up;                      /* QEMU runs (power-good) */
	long long next_status_at;
	unsigned starts, cuts, wakes, presses, forced_offs;
	FILE *log;
};

int dut_open(struct dut *d, struct board *board, const char *run_dir, struct cable *cable,
	     unsigned long_press_ms, FILE *log);
void dut_close(struct dut *d);

void dut_relay(struct dut *d, bool closed);
void dut_button(struct dut *d, bool down);
/* Long presses and QEMU's own power-off (hibernation, shutdown); true when power-good changed. */
bool dut_tick(struct dut *d);

#endif
