/* The null-modem cable between the DUT's UART (the console socket its QEMU serves) and the
 * bench's UART ttyS1 (a pty whose slave the bench's QEMU opens as a host serial line, so the
 * speed the bench programs into its 16550 shows in the pty's termios).
 *
 * Bytes pass as they are when both ends run at the same speed, and as a receiver at the wrong
 * speed would see them otherwise (uart_resample.h).  What the bench leaves unread for long (its
 * port closed) is dropped, as a UART nobody reads overruns. */
#ifndef VBENCH_CABLE_H
#define VBENCH_CABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cable {
	int bench_master;          /* pty master: the bench's ttyS1 */
	int bench_slave;           /* kept open so the master never reads EIO while QEMU restarts */
	int dut_fd;                /* the DUT's console socket; -1 while the DUT is off */
	unsigned dut_baud;         /* what the DUT's kernel runs its console at */
	unsigned bench_baud_seen;  /* last speed read from the pty, for the log */
	unsigned long long to_bench, to_dut, garbled, overrun;
	int last_pending;          /* bytes the bench had not read after our last write */
	long long reading_at;      /* when the bench was last seen reading */
	FILE *log;
};

/* Create the pty and link link_path to its slave (the bench QEMU's -chardev serial,path=). */
int cable_open(struct cable *c, const char *link_path, unsigned dut_baud, FILE *log);
void cable_close(struct cable *c);

/* The speed the bench's UART is programmed to now (0 when unknown). */
unsigned cable_bench_baud(struct cable *c);

/* The DUT's end: plugged when its QEMU starts, unplugged when it stops. */
int cable_connect_dut(struct cable *c, const char *socket_path, unsigned timeout_ms);
void cable_disconnect_dut(struct cable *c);

/* Move what is readable on fd (the bench's master or the DUT's socket) to the other end.
 * Returns -1 when the DUT's socket closed (the DUT is off), else 0. */
int cable_pump(struct cable *c, int fd);

#endif
