/* libFuzzer harness: board files (config/board.h): YAML parse, schema walk, checks. */
#include "config/board.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct board_paths paths = { .run = "/run/x", .out = "/out", .top = "/top" };
	const char *path = fuzz_file("board", data, size);
	struct board *board = NULL;
	struct rig_err err = { 0 };

	if (path && board_load(path, &paths, &board, &err) == 0)
		board_free(board);
	return 0;
}
