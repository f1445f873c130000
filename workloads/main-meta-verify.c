/* meta-verify: which of a meta-writer's operations its directory shows (lib/meta_ops.h), as a
 * journal scan line the rig judges against the writer's acknowledgements. See
 * workloads/README.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/meta_ops.h"

int main(int argc, char **argv)
{
	struct jv_result res;
	struct jv_verdict v;
	struct wl_err err = {{0}};
	char line[512];
	int dirfd;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf("usage: %s DIR\n  prints valid_prefix=N records=N torn=0 corrupt=N holes=N "
		       "first_problem=N integrity=pass|fail id=NAME\n", argv[0]);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dirfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		fprintf(stderr, "meta-verify: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (meta_scan(dirfd, &res, &err) < 0) {
		fprintf(stderr, "meta-verify: %s: %s\n", argv[1], err.msg);
		close(dirfd);
		return 2;
	}
	close(dirfd);
	jv_judge(&res, false, 0, &v);
	jv_format(&res, &v, line, sizeof(line));
	puts(line);
	return jv_passed(&v) ? 0 : 1;
}
