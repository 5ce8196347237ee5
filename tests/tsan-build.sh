# Sourced by tests/jobs.sh and tests/check-pipe.sh: the ThreadSanitizer
# build of ptxsurf-as both run their threaded cases on.
#   tsan_build SUITE OPT_OUT_VALUE OPT_OUT_NAME
# needs B, CC, MAKE and tmp; builds $B/tsan/ptxsurf-as. Returns 0 when
# built, 1 when skipped (says why, loudly), 2 when the build failed.
tsan_build() {
	if [ "$2" = 0 ]; then
		echo "$1: ThreadSanitizer part SKIPPED ($3=0)"
		return 1
	fi
	if ! echo 'int main(void) { return 0; }' >"$tmp/t.c" ||
		! $CC -fsanitize=thread -o "$tmp/t" "$tmp/t.c" 2>/dev/null || ! "$tmp/t"; then
		echo "$1: ThreadSanitizer part SKIPPED: $CC cannot build and run -fsanitize=thread programs"
		return 1
	fi
	if $MAKE -s B="$B/tsan" PROG="$B/tsan/ptxsurf-as" CFLAGS="-O1 -g -fsanitize=thread" \
			LDFLAGS="-fsanitize=thread" "$B/tsan/ptxsurf-as" >"$tmp/tsan-build.log" 2>&1; then
		return 0
	fi
	tail -n 20 "$tmp/tsan-build.log"
	return 2
}
