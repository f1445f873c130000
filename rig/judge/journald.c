#include "judge/journald.h"

#include <stdio.h>
#include <string.h>

#include "util/kv.h"

enum results_verdict_result journald_judge(const char *line, char *detail, size_t size)
{
	char verify[16] = "";
	long files = kv_long(line, "files", -1), bad = kv_long(line, "bad_files", -1),
	     renamed = kv_long(line, "renamed", -1), complaints = kv_long(line, "complaints", -1),
	     corrupt = kv_long(line, "corrupt_complaints", -1),
	     earlier = kv_long(line, "bad_earlier", 0);

	if (strncmp(line, "journald ", 9) != 0 || !kv_get(line, "verify", verify, sizeof(verify)) ||
	    files < 0 || bad < 0 || renamed < 0 || complaints < 0 || corrupt < 0) {
		snprintf(detail, size, "no journald report: %.300s", line);
		return RESULTS_VERDICT_ERROR;
	}
	if (strcmp(verify, "pass") != 0 || bad > 0 || corrupt > 0) {
		snprintf(detail, size, "journald's journal damaged: journalctl --verify %s (%ld of %ld "
			 "files bad this boot), %ld complaints of corruption or truncation, %ld files "
			 "renamed *.journal~ this boot", verify, bad, files, corrupt, renamed);
		return RESULTS_VERDICT_FAIL;
	}
	snprintf(detail, size, "journalctl --verify clean (%ld files); no corruption or truncation "
		 "reported; %ld uncleanly closed files set aside (*.journal~) this boot, %ld complaints; "
		 "%ld set aside before this boot fail --verify (not this cycle's)", files, renamed,
		 complaints, earlier);
	return RESULTS_VERDICT_PASS;
}
