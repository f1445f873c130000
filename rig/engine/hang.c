#include "engine/hang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/starvation.h"

#define TAIL_LINES 40
#define TAIL_WINDOW 16384
#define SYSRQ_SETTLE_MS 2000

char *file_tail(const char *path, unsigned max_lines)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	char *buf, *start;
	size_t got;
	long from;

	if (!f)
		return strdup("");
	from = fstat(fileno(f), &st) == 0 && st.st_size > TAIL_WINDOW ? st.st_size - TAIL_WINDOW : 0;
	buf = calloc(1, TAIL_WINDOW + 1);
	if (!buf || fseek(f, from, SEEK_SET) != 0) {
		fclose(f);
		free(buf);
		return strdup("");
	}
	got = fread(buf, 1, TAIL_WINDOW, f);
	fclose(f);
	buf[got] = '\0';
	start = buf + got;
	for (unsigned lines = 0; start > buf; start--)
		if (start[-1] == '\n' && start != buf + got && ++lines == max_lines)
			break;
	memmove(buf, start, strlen(start) + 1);
	return buf;
}

int hang_record(struct engine_ctx *ctx, struct results_cycle *cyc, const char *phase,
		struct rig_err *err)
{
	struct rig_err ignored;
	char *tail;
	int rc = 0;

	/* the host's CPU accounting of the hang's window, before the dump and the power cut */
	starvation_hang_declared(ctx);
	if (ctx->last_wait_extended_ms > 0)
		session_say(ctx->s, "HANG in phase %s (timeout, after %.0f s more while the disks were "
			    "busy): trying a SysRq task dump, then power-cycling", phase,
			    ctx->last_wait_extended_ms / 1e3);
	else
		session_say(ctx->s, "HANG in phase %s (timeout): trying a SysRq task dump, then "
			    "power-cycling", phase);
	/* A task dump costs two seconds and often names the stuck task; a stopped or dead board
	 * simply ignores it. SysRq-z then dumps the trace buffer: the rig's freeze and thaw
	 * events of this cycle (the agent cannot read them now), e.g. a freeze that never
	 * returned. */
	if (power_sysrq(ctx->s->power, 'w', &ignored) == 0 && ctx->s->console) {
		(void)power_sysrq(ctx->s->power, 'z', &ignored);
		(void)session_pump(ctx->s, SYSRQ_SETTLE_MS, NULL, &ignored);
	}
	/* The time from the phase's deadline to its detection (bench: goal <= 1 s). */
	if (cyc)
		(void)results_cycle_add_measurement(cyc, "hang_detection_ms", NULL,
						    ctx->last_timeout_overrun_ms, "ms", err);
	tail = file_tail(ctx->s->console_log, TAIL_LINES);
	if (cyc && results_cycle_set_hang(cyc, phase, tail, err) < 0)
		rc = -1;
	free(tail);
	ctx->totals->hangs++;
	ctx->needs_boot = true;
	if (session_power_off(ctx->s, err) < 0)
		return -1;
	return rc < 0 ? -1 : 1;
}
