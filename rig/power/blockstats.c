/* Disk requests from query-blockstats (power/blockstats.h). */
#include "power/blockstats.h"

static const char *const counted[] = { "rd_operations", "wr_operations", "flush_operations" };

int blockstats_ops(const json_t *reply, unsigned long long *ops)
{
	size_t i;
	const json_t *dev;

	if (!json_is_array(reply))
		return -1;
	*ops = 0;
	json_array_foreach(reply, i, dev) {
		const json_t *stats = json_object_get(dev, "stats");

		if (!json_is_object(stats))
			return -1;
		for (size_t k = 0; k < sizeof(counted) / sizeof(counted[0]); k++) {
			const json_t *n = json_object_get(stats, counted[k]);

			if (!json_is_integer(n) || json_integer_value(n) < 0)
				return -1;
			*ops += (unsigned long long)json_integer_value(n);
		}
	}
	return 0;
}
