#include "lib/journald_logger.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/wl_util.h"

int jd_entry_format(char *buf, size_t len, const char *id, uint64_t seq)
{
	int n = snprintf(buf, len,
			 "MESSAGE=" JD_MESSAGE_TAG "id=%s seq=%" PRIu64 "\n"
			 "SYSLOG_IDENTIFIER=" JD_IDENTIFIER "\nPRIORITY=6\n"
			 "RIG_ID=%s\nRIG_SEQ=%" PRIu64 "\n",
			 id, seq, id, seq);

	return n < 0 || (size_t)n >= len ? -1 : n;
}

bool jd_line_parse(const char *line, const char *id, uint64_t *seq)
{
	const char *p = strstr(line, JD_MESSAGE_TAG "id=");
	size_t id_len = strlen(id);
	char digits[24];
	uint64_t value;
	size_t n = 0;

	if (!p)
		return false;
	p += strlen(JD_MESSAGE_TAG "id=");
	if (strncmp(p, id, id_len) != 0 || strncmp(p + id_len, " seq=", 5) != 0)
		return false;
	p += id_len + 5;
	while (p[n] >= '0' && p[n] <= '9' && n < sizeof(digits) - 1) {
		digits[n] = p[n];
		n++;
	}
	digits[n] = '\0';
	/* a line torn on its way must not pass for a shorter number */
	if (p[n] != '\0' && p[n] != '\n' && p[n] != '\r')
		return false;
	if (!wl_parse_u64(digits, &value) || value == 0)
		return false;
	*seq = value;
	return true;
}

void jd_acker_read(struct jd_acker *a, uint64_t seq)
{
	if (seq > a->highest_read)
		a->highest_read = seq;
}

bool jd_acker_due(struct jd_acker *a, uint64_t now_ns, uint64_t *seq)
{
	if (a->highest_read <= a->acked)
		return false;
	if (a->last_ack_ns && now_ns - a->last_ack_ns < a->ack_ns)
		return false;
	a->acked = a->highest_read;
	a->last_ack_ns = now_ns;
	*seq = a->acked;
	return true;
}
