/* libFuzzer harness: the journal verifier (workloads/lib/journal_verify.h) on a file of
 * arbitrary bytes, as rig-dut verify meets one after a power cut; and its summary line parsed
 * back as the host does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/journal_verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct jv_result res, back;
	struct jv_verdict verdict;
	struct wl_err err = { 0 };
	char line[1024], *text;

	if (fd < 0 && (fd = memfd_create("rig-fuzz-journal", 0)) < 0)
		return 0;
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size ||
	    lseek(fd, 0, SEEK_SET) < 0)
		return 0;
	memset(&res, 0, sizeof(res));
	if (jv_scan_fd(fd, NULL, &res, &err) == 0) {
		jv_judge(&res, size > 0 && (data[0] & 1), size, &verdict);
		if (jv_format(&res, &verdict, line, sizeof(line)) >= 0)
			(void)jv_parse(line, &back);
	}
	if ((text = malloc(size + 1))) {
		memcpy(text, data, size);
		text[size] = '\0';
		(void)jv_parse(text, &back);
		free(text);
	}
	return 0;
}
