/* The main() every Check suite in tests/unit/ shares: run its one suite
 * and exit non-zero when a test failed (tests/run-all.sh reads Check's
 * summary line, tests/run-valgrind.sh the exit status). */
#ifndef PTXSURF_CHECK_MAIN_H
#define PTXSURF_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int check_main_run(Suite *suite)
{
	SRunner *sr = srunner_create(suite);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define CHECK_MAIN(suite_fn) \
	int main(void) \
	{ \
		return check_main_run(suite_fn()); \
	}

#endif
