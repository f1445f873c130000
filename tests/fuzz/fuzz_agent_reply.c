/* libFuzzer harness: console lines fed to a pending agent reply (console/agent_reply.h), as
 * the agent loop does, then the verified output joined back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "console/agent_reply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *line, *save = NULL;
	struct agent_reply reply;
	struct rig_err err = { 0 };

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	agent_reply_init(&reply, 7);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (agent_reply_feed(&reply, "@@RIG@@", line, &err) != 0)
			break;
	if (reply.status == AGENT_OK)
		free(agent_reply_output(&reply));
	(void)agent_status_name(reply.status);
	agent_reply_free(&reply);
	free(text);
	return 0;
}
