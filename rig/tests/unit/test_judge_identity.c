/* judge/identity.h: the kernel a board reports running against the one deployed (meta.json). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/evidence.h"
#include "judge/identity.h"

#define META_A "{\"id\": \"aaaa00000001\", \"version\": \"7.3.4-rig-aaaa00000001\", " \
	       "\"build_id\": \"1111111111111111111111111111111111111111\"}"
#define INFO_A "kernel=7.3.4-rig-aaaa00000001 freeze_filesystems=1 sync_on_suspend=1 " \
	       "boot_id=e5 build_id=1111111111111111111111111111111111111111"

static void same_kernel_passes(void **state)
{
	struct kernel_identity want;
	struct ev_identity got;
	char why[320] = "";

	(void)state;
	assert_int_equal(identity_from_meta(META_A, &want, why, sizeof(why)), 0);
	assert_string_equal(want.version, "7.3.4-rig-aaaa00000001");
	assert_int_equal(ev_parse_identity(INFO_A, &got), 0);
	assert_string_equal(got.build_id, "1111111111111111111111111111111111111111");
	assert_int_equal(identity_judge(&want, &got, why, sizeof(why)), 0);
}

/* Another build of the same release (a stale TFTP root, a rebuilt tree): the build-id tells. */
static void other_build_id_fails_naming_both(void **state)
{
	struct kernel_identity want;
	struct ev_identity got;
	char why[320] = "";

	(void)state;
	assert_int_equal(identity_from_meta(META_A, &want, why, sizeof(why)), 0);
	assert_int_equal(ev_parse_identity("kernel=7.3.4-rig-aaaa00000001 build_id=2222", &got), 0);
	assert_int_equal(identity_judge(&want, &got, why, sizeof(why)), -1);
	assert_string_equal(why, "the board runs kernel 7.3.4-rig-aaaa00000001 build-id 2222, not "
			    "the deployed 7.3.4-rig-aaaa00000001 build-id "
			    "1111111111111111111111111111111111111111");
}

static void other_release_or_no_build_id_fails(void **state)
{
	struct kernel_identity want;
	struct ev_identity got;
	char why[320] = "";

	(void)state;
	assert_int_equal(identity_from_meta(META_A, &want, why, sizeof(why)), 0);
	assert_int_equal(ev_parse_identity("kernel=7.3.4-rig-bbbb00000002 "
					   "build_id=1111111111111111111111111111111111111111", &got), 0);
	assert_int_equal(identity_judge(&want, &got, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "runs kernel 7.3.4-rig-bbbb00000002"));
	/* an agent that cannot read /sys/kernel/notes proves nothing */
	assert_int_equal(ev_parse_identity("kernel=7.3.4-rig-aaaa00000001 build_id=", &got), 0);
	assert_int_equal(identity_judge(&want, &got, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "build-id (none reported)"));
}

static void meta_without_identity_is_refused(void **state)
{
	struct kernel_identity want;
	char why[320] = "";

	(void)state;
	assert_int_equal(identity_from_meta("{\"id\": \"x\", \"version\": \"7.3.4-rig\"}", &want, why,
					    sizeof(why)), -1);
	assert_non_null(strstr(why, "no valid \"build_id\""));
	assert_int_equal(identity_from_meta("[1]", &want, why, sizeof(why)), -1);
	assert_int_equal(identity_from_meta("{\"version\": 3, \"build_id\": \"11\"}", &want, why,
					    sizeof(why)), -1);
	assert_non_null(strstr(why, "\"version\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_kernel_passes),
		cmocka_unit_test(other_build_id_fails_naming_both),
		cmocka_unit_test(other_release_or_no_build_id_fails),
		cmocka_unit_test(meta_without_identity_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
