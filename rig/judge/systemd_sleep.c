#include "judge/systemd_sleep.h"

#include <stdio.h>
#include <string.h>

#include "util/kv.h"

enum results_verdict_result systemd_sleep_judge(const char *line, char *detail, size_t size)
{
	char result[32] = "", freeze[16] = "", thaw[16] = "", said[160] = "";
	long pre = kv_long(line, "sleep_pre_ms", -1), post = kv_long(line, "sleep_post_ms", -1);

	if (!kv_get(line, "systemd_result", result, sizeof(result))) {
		snprintf(detail, size, "no report from systemd in: %.300s", line);
		return RESULTS_VERDICT_ERROR;
	}
	kv_get(line, "user_freeze", freeze, sizeof(freeze));
	kv_get(line, "user_thaw", thaw, sizeof(thaw));
	kv_get(line, "systemd_said", said, sizeof(said));
	if (strcmp(result, "success") != 0) {
		snprintf(detail, size, "systemd reported the sleep failed: Result=%s%s%s", result,
			 *said ? "; systemd said: " : "", said);
		return RESULTS_VERDICT_FAIL;
	}
	if (strcmp(freeze, "froze") != 0 || strcmp(thaw, "thawed") != 0) {
		snprintf(detail, size, "user sessions: user.slice freeze=%s thaw=%s (systemd-sleep freezes "
			 "them before the kernel freezes tasks and thaws them after)%s%s",
			 *freeze ? freeze : "?", *thaw ? thaw : "?", *said ? "; systemd said: " : "", said);
		return RESULTS_VERDICT_FAIL;
	}
	snprintf(detail, size, "systemd-sleep succeeded; user.slice frozen before and thawed after; "
		 "systemd-sleep took %ld ms before the kernel's sleep and %ld ms after", pre, post);
	return RESULTS_VERDICT_PASS;
}
