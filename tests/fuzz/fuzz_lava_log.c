/* libFuzzer harness: a LAVA job log (YAML lines) read into cases and console text, then the
 * console replayed into evidence, as `rig lava import` does before it stores anything. */
#include <stdint.h>

#include "lava/cases.h"
#include "lava/evidence.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lava_cases cases = { 0 };
	struct lava_evidence ev;
	struct rig_err err = { 0 };

	if (lava_cases_from_log_text((const char *)data, size, "fuzz.yaml", &cases, &err) == 0 &&
	    lava_evidence_read(&cases, &ev, &err) == 0)
		lava_evidence_free(&ev);
	lava_cases_free(&cases);
	return 0;
}
