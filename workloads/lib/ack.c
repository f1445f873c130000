#include "lib/ack.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ack_line_format(char *buf, size_t len, const struct ack_line *ack)
{
	return snprintf(buf, len, ACK_TAG "id=%s seq=%" PRIu64 " boottime_ns=%" PRIu64 "\n", ack->id,
			ack->seq, ack->boottime_ns);
}

/* Parse "key=<digits>" at *p, advancing past it. */
static bool parse_number_field(const char **p, const char *key, uint64_t *out)
{
	size_t key_len = strlen(key);
	char digits[24];
	size_t n = 0;

	if (strncmp(*p, key, key_len) != 0)
		return false;
	*p += key_len;
	while ((*p)[n] >= '0' && (*p)[n] <= '9' && n < sizeof(digits) - 1) {
		digits[n] = (*p)[n];
		n++;
	}
	digits[n] = '\0';
	*p += n;
	return wl_parse_u64(digits, out);
}

bool ack_line_parse(const char *line, struct ack_line *out)
{
	const char *p = strstr(line, ACK_TAG);
	size_t id_len;

	if (p == NULL)
		return false;
	p += strlen(ACK_TAG);
	if (strncmp(p, "id=", 3) != 0)
		return false;
	p += 3;
	id_len = strcspn(p, " \t\r\n");
	if (id_len == 0 || id_len >= JR_ID_MAX)
		return false;
	memcpy(out->id, p, id_len);
	out->id[id_len] = '\0';
	p += id_len;
	if (*p++ != ' ' || !parse_number_field(&p, "seq=", &out->seq))
		return false;
	if (*p++ != ' ' || !parse_number_field(&p, "boottime_ns=", &out->boottime_ns))
		return false;
	/* A line torn on the serial wire must not pass for a shorter number. */
	return *p == '\0' || *p == '\n' || *p == '\r';
}

int ack_log_last_seq(const char *path, const char *id, uint64_t *seq, bool *found,
		     struct wl_err *err)
{
	FILE *log = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	struct ack_line ack;
	int rc = 0;

	*seq = 0;
	*found = false;
	if (log == NULL)
		return wl_err_set(err, -errno, "ack log %s: %s", path, strerror(errno));
	errno = 0;
	while (getline(&line, &cap, log) >= 0) {
		if (!ack_line_parse(line, &ack) || strcmp(ack.id, id) != 0)
			continue;
		*found = true;
		if (ack.seq > *seq)
			*seq = ack.seq;
	}
	if (ferror(log))
		rc = wl_err_set(err, -EIO, "ack log %s: read error", path);
	free(line);
	fclose(log);
	return rc;
}

int ack_sink_open(struct ack_sink *sink, const char *path, struct wl_err *err)
{
	sink->kmsg = path == NULL;
	if (path == NULL)
		path = ACK_KMSG_PATH;
	sink->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (sink->kmsg ? 0 : O_CREAT), 0644);
	if (sink->fd < 0)
		return wl_err_set(err, -errno, "acknowledgements %s: open: %s", path, strerror(errno));
	return 0;
}

int ack_sink_emit(struct ack_sink *sink, const struct ack_line *ack)
{
	char line[128];
	size_t prefix = sink->kmsg ? strlen(ACK_KMSG_LEVEL) : 0;
	int n;

	memcpy(line, ACK_KMSG_LEVEL, prefix);
	n = ack_line_format(line + prefix, sizeof(line) - prefix, ack);
	if (n < 0 || (size_t)n >= sizeof(line) - prefix)
		return -EOVERFLOW;
	return wl_write_all(sink->fd, line, prefix + (size_t)n);
}

void ack_sink_close(struct ack_sink *sink)
{
	if (sink->fd >= 0)
		close(sink->fd);
	sink->fd = -1;
}
