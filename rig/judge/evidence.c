/* Board replies parsed into evidence records. */
#include "judge/evidence.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stall_report.h"
#include "util/array.h"
#include "util/kv.h"
#include "util/number.h"

int ev_parse_identity(const char *line, struct ev_identity *out)
{
	memset(out, 0, sizeof(*out));
	if (!kv_get(line, "kernel", out->kernel, sizeof(out->kernel)) || !out->kernel[0])
		return -1;
	out->knob_freeze_filesystems = (int)kv_long(line, "freeze_filesystems", -1);
	out->knob_sync_on_suspend = (int)kv_long(line, "sync_on_suspend", -1);
	kv_get(line, "boot_id", out->boot_id, sizeof(out->boot_id));
	kv_get(line, "build_id", out->build_id, sizeof(out->build_id));
	return 0;
}

void ev_parse_sleep(const char *const *lines, size_t n, struct ev_sleep *out)
{
	const char *line = n ? lines[0] : "";

	memset(out, 0, sizeof(*out));
	out->replied = true;
	for (size_t i = 0; i < n; i++)
		if (kv_long(lines[i], "result", -1) >= 0) {
			line = lines[i];
			break;
		}
	out->result = kv_long(line, "result", -1);
	out->successes = kv_long(line, "successes", -1);
	out->presync_ms = kv_long(line, "presync_ms", 0);
	snprintf(out->line, sizeof(out->line), "%s", line);
}

/* A value that is a count or "unavailable": -1 for anything but digits. */
static long count_of(const char *line, const char *key)
{
	char text[24];
	long long v;

	if (!kv_get(line, key, text, sizeof(text)) || parse_number(text, 0, LONG_MAX, &v) < 0)
		return -1;
	return (long)v;
}

void ev_parse_wake(const char *const *lines, size_t n, struct ev_wake *out)
{
	const char *line = NULL;
	char text[EV_WAKE_SOURCES_MAX];

	memset(out, 0, sizeof(*out));
	out->irq = out->asleep_ms = out->awake_ms = out->hw_sleep_ms = -1;
	for (size_t i = 0; i < n && !line; i++)
		if (strncmp(lines[i], "wake ", 5) == 0 && strstr(lines[i], " asleep_ms="))
			line = lines[i];
	if (!line)
		return;
	out->reported = true;
	out->irq = count_of(line, "irq");
	out->asleep_ms = count_of(line, "asleep_ms");
	out->awake_ms = count_of(line, "awake_ms");
	if (out->irq >= 0 && kv_get(line, "irq_name", out->irq_name, sizeof(out->irq_name)) &&
	    strcmp(out->irq_name, "unavailable") == 0)
		out->irq_name[0] = '\0';
	if (kv_get(line, "sources", text, sizeof(text)) && text[0] &&
	    strcmp(text, "unavailable") != 0) {
		out->sources_known = true;
		if (strcmp(text, "none") != 0)
			snprintf(out->sources, sizeof(out->sources), "%s", text);
	}
	if (kv_get(line, "rtc", out->rtc, sizeof(out->rtc)) && out->rtc[0] &&
	    strcmp(out->rtc, "unavailable") != 0)
		out->rtc_known = true;
	if (!out->rtc_known || strcmp(out->rtc, "none") == 0)
		out->rtc[0] = '\0';
	out->hw_sleep_ms = count_of(line, "hw_sleep_ms");
}

static bool collect_marker(const char *line, const char **part)
{
	static const char key[] = "collect=";

	if (strncmp(line, key, sizeof(key) - 1) != 0)
		return false;
	*part = line + sizeof(key) - 1;
	return true;
}

bool ev_collect_part(const char *const *lines, size_t n, const char *part, size_t *first,
		     size_t *count)
{
	const char *name;
	size_t i = 0;

	while (i < n && !(collect_marker(lines[i], &name) && strcmp(name, part) == 0))
		i++;
	if (i == n)
		return false;
	*first = ++i;
	while (i < n && !collect_marker(lines[i], &name))
		i++;
	*count = i - *first;
	return true;
}

void ev_parse_trace(const char *const *lines, size_t n, struct frozen_window *w)
{
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		char ev[32], ns_text[24], dev[40] = "";
		uint64_t ns;

		/* "event t_ns [dev]": fields split by blanks, the number whole */
		if (sscanf(lines[i], "%31s %23s %39s", ev, ns_text, dev) < 2 ||
		    parse_u64(ns_text, 0, UINT64_MAX, &ns) < 0)
			continue;
		window_feed(w, ev, ns, dev);
	}
}

static struct ev_writer_ops *writer_slot(struct ev_stall_ops *s, const char *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->writers[i].id, id) == 0)
			return &s->writers[i];
	if (s->n == EV_WRITERS_MAX)
		return NULL;
	snprintf(s->writers[s->n].id, sizeof(s->writers[0].id), "%s", id);
	return &s->writers[s->n++];
}

static int add_op(struct ev_writer_ops *w, const struct tel_entry *e, struct rig_err *err)
{
	if (array_grow((void **)&w->ops, &w->cap_ops, w->n_ops, sizeof(*w->ops)))
		return rig_err_set(err, RIG_EXIT_INFRA, "evidence: out of memory");
	w->ops[w->n_ops] = *e;
	w->ops[w->n_ops].op_id = w->n_ops + 1;
	w->n_ops++;
	return 0;
}

int ev_parse_stall_ops(const char *const *lines, size_t n, struct ev_stall_ops *out,
		       struct rig_err *err)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const char *line = lines[i];
		char id[32];
		struct ev_writer_ops *w;
		struct tel_entry e;
		struct tel_header h;

		if (strncmp(line, "window from_ns=", 15) == 0) {
			char a[24] = "", b[24] = "";

			kv_get(line, "from_ns", a, sizeof(a));
			kv_get(line, "to_ns", b, sizeof(b));
			out->window = parse_u64(a, 0, UINT64_MAX, &out->from_ns) == 0 &&
				      parse_u64(b, 0, UINT64_MAX, &out->to_ns) == 0;
			continue;
		}
		if (!kv_get(line, "writer", id, sizeof(id)) || !*id)
			continue;
		if (stall_parse_header(line, &h)) {
			if (!(w = writer_slot(out, id)))
				continue;
			w->hdr = h;
			w->has_header = true;
		} else if (stall_parse_op(line, &e)) {
			if ((w = writer_slot(out, id)) && add_op(w, &e, err) < 0)
				return -1;
		}
	}
	return 0;
}

void ev_stall_ops_free(struct ev_stall_ops *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->writers[i].ops);
	memset(s, 0, sizeof(*s));
}

void ev_parse_alive(const char *const *lines, size_t n, struct ev_alive *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n && out->n < EV_WRITERS_MAX; i++) {
		char id[32];
		long alive = kv_long(lines[i], "alive", -1);

		if (alive < 0 || !kv_get(lines[i], "writer", id, sizeof(id)) || !*id)
			continue;
		snprintf(out->writers[out->n].id, sizeof(out->writers[0].id), "%s", id);
		out->writers[out->n++].alive = alive != 0;
	}
}

int ev_parse_frozen(const char *line)
{
	long frozen = kv_long(line, "frozen", -1);

	return frozen == 0 || frozen == 1 ? (int)frozen : -1;
}

void ev_parse_verify(const char *const *lines, size_t n, struct ev_journals *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n && out->n < EV_WRITERS_MAX; i++) {
		struct ev_journal *j = &out->files[out->n];
		char file[64];

		if (!kv_get(lines[i], "journal", file, sizeof(file)) || !*file)
			continue;
		snprintf(j->file, sizeof(j->file), "%s", file);
		snprintf(j->line, sizeof(j->line), "%s", lines[i]);
		j->scanned = jv_parse(lines[i], &j->scan);
		out->n++;
	}
}

void ev_parse_journald(const char *const *lines, size_t n, struct ev_journald *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (strncmp(lines[i], "journald verify=", 16) == 0)
			snprintf(out->line, sizeof(out->line), "%s", lines[i]);
		else if (strncmp(lines[i], "journald ", 9) == 0 && out->n_said < EV_JOURNALD_SAID_MAX)
			snprintf(out->said[out->n_said++], sizeof(out->said[0]), "%s", lines[i]);
	}
}

void ev_parse_fsck(const char *const *lines, size_t n, struct ev_fsck *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n && out->n < EV_FILESYSTEMS_MAX; i++) {
		char fs[64];
		long rc = kv_long(lines[i], "fsck_rc", -1);

		if (rc < 0 || !kv_get(lines[i], "fs", fs, sizeof(fs)) || !*fs)
			continue;
		snprintf(out->filesystems[out->n].fs, sizeof(out->filesystems[0].fs), "%s", fs);
		out->filesystems[out->n].rc = rc;
		snprintf(out->filesystems[out->n].line, sizeof(out->filesystems[0].line), "%s", lines[i]);
		out->n++;
	}
}

void ev_writer_fs(const char *id, char *fs, size_t size)
{
	const char *dash = strrchr(id, '-');
	size_t n = dash ? (size_t)(dash - id) : strlen(id);

	snprintf(fs, size, "%.*s", (int)n, id);
}
