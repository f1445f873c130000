/* libFuzzer harness: the `rig powerd` line protocol (power/power_proto.h): a request line as
 * the daemon parses it (and formats it back), a reply line as `rig power` parses it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "power/power_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct power_request req;
	struct rig_err err = { 0 };
	char why[128], buf[POWER_PROTO_LINE_MAX], *line = malloc(size + 1);

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	if (power_request_parse(line, &req, why, sizeof(why)) == 0)
		(void)power_request_format(&req, buf, sizeof(buf));
	(void)power_reply_parse(line, buf, sizeof(buf), &err);
	free(line);
	return 0;
}
