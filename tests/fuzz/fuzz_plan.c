/* libFuzzer harness: test plans (config/plan.h) and known-issue files (config/known.h), the
 * other YAML the rig loads: the first byte picks which loader reads the rest. */
#include "config/known.h"
#include "config/plan.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rig_err err = { 0 };
	const char *path;

	if (size == 0 || !(path = fuzz_file("plan", data + 1, size - 1)))
		return 0;
	if (data[0] & 1) {
		struct known_issues *known = NULL;

		if (known_load(path, &known, &err) == 0)
			known_free(known);
	} else {
		struct plan *plan = NULL;

		if (plan_load(path, &plan, &err) == 0)
			plan_free(plan);
	}
	return 0;
}
