#!/bin/sh
# Builds the libFuzzer targets in tests/fuzz/ with clang (ASan + UBSan,
# UB is fatal) and runs each for SECONDS seconds:
#   sh tests/fuzz/run.sh [SECONDS]        (make fuzz FUZZ_SECONDS=N)
# FUZZ_TARGETS="pipeline disasm" picks targets. Build, corpora and logs go
# to $FUZZ_DIR (default build/fuzz). FUZZ_KEEP_GOING=1 runs libFuzzer's fork
# mode, which records each crash and goes on fuzzing: for long runs while
# a known bug is still unfixed.
# Prints the executions per target; exits 1 when a target finds a crash,
# leak or UB report (the reproducer is left in $FUZZ_DIR/artifacts), and
# 77 when clang cannot link -fsanitize=fuzzer (Debian: libclang-rt-14-dev).
seconds=${1:-60}
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
FUZZ_TARGETS=${FUZZ_TARGETS:-"pipeline disasm"}
CLANG=${CLANG:-clang}
case $seconds in
'' | *[!0-9]*) echo "usage: run.sh SECONDS" >&2; exit 2 ;;
esac

# Probe first: without the fuzzer runtime there is nothing to run, and
# that must be visible rather than a silent pass.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! command -v "$CLANG" >/dev/null 2>&1 ||
	! "$CLANG" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >"$probe/log" 2>&1; then
	echo "fuzz: SKIP: $CLANG cannot link -fsanitize=fuzzer,address,undefined" \
		"(install clang and libclang-rt-14-dev)"
	[ -s "$probe/log" ] && head -n 5 "$probe/log"
	exit 77
fi

# The library carries coverage instrumentation but not libFuzzer's main;
# UB aborts so that the fuzzer records it as a crash with its input. $san
# is a list of flags, expanded unquoted on purpose.
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if ! make --no-print-directory -s B="$FUZZ_DIR" CC="$CLANG" \
	CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $san" "$FUZZ_DIR/libptxsurf.a"; then
	echo "fuzz: FAIL: the library does not build with $CLANG"
	exit 1
fi
for t in $FUZZ_TARGETS; do
	# shellcheck disable=SC2086
	if ! "$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -O1 -g \
		-fsanitize=fuzzer $san -iquote src -iquote "$FUZZ_DIR/gen" \
		-o "$FUZZ_DIR/fuzz_$t" "tests/fuzz/fuzz_$t.c" "$FUZZ_DIR/libptxsurf.a"; then
		echo "fuzz: FAIL: fuzz_$t does not build"
		exit 1
	fi
done

# Seeds: every PTX file the tests have (the pipeline target), and for the
# disassembler whatever cubins and raw code the tests keep. The corpus
# directories persist, so later runs start where earlier ones stopped.
mkdir -p "$FUZZ_DIR/corpus/pipeline" "$FUZZ_DIR/corpus/disasm" "$FUZZ_DIR/artifacts"
# seed DIR: copies the files named on standard input into DIR, each under
# its path with '/' turned into '_' so that names stay unique.
seed() {
	while IFS= read -r f; do
		cp "$f" "$1/seed-$(printf '%s' "$f" | tr '/' '_')"
	done
}
find tests/corpus tests/cases examples -name '*.ptx' 2>/dev/null | seed "$FUZZ_DIR/corpus/pipeline"
find tests \( -name '*.cubin' -o -name '*.bin' \) 2>/dev/null | seed "$FUZZ_DIR/corpus/disasm"
# Cubins and raw code of our own: the reader then starts from valid files
# instead of having to discover ELF by mutation.
# shellcheck disable=SC2086
if "$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=fuzzer-no-link $san -iquote src -iquote "$FUZZ_DIR/gen" \
	-o "$FUZZ_DIR/seed_code" tests/fuzz/seed_code.c "$FUZZ_DIR/libptxsurf.a"; then
	ASAN_OPTIONS=detect_leaks=0 "$FUZZ_DIR/seed_code" "$FUZZ_DIR/corpus/disasm" \
		tests/cases/encode/*.ptx examples/*.ptx
else
	echo "fuzz: seed_code does not build; the disassembler starts from the test files only"
fi

status=0
for t in $FUZZ_TARGETS; do
	log=$FUZZ_DIR/fuzz_$t.log
	echo "fuzz: fuzz_$t for ${seconds}s, log in $log"
	# -rss_limit_mb stays at libFuzzer's default (2048); -timeout flags
	# inputs that take more than 10 s as hangs; detect_leaks catches
	# memory a pass forgets to free.
	# Fork mode leaves crashes in the artifacts rather than in the exit
	# status, so what counts is a reproducer newer than this stamp.
	stamp=$FUZZ_DIR/.fuzz_$t.start
	: >"$stamp"
	keep=""
	[ "${FUZZ_KEEP_GOING:-0}" = 1 ] && keep="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"$FUZZ_DIR/fuzz_$t" -max_total_time="$seconds" -timeout=10 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$FUZZ_DIR/artifacts/$t-" $keep \
		"$FUZZ_DIR/corpus/$t" >"$log" 2>&1
	rc=$?
	# A single run ends with libFuzzer's statistics; fork mode only prints
	# progress lines "#EXECS: cov: ...".
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -n 1)
	execs=${execs:-0}
	echo "fuzz: fuzz_$t: $execs executions in ${seconds}s, exit $rc"
	found=$(find "$FUZZ_DIR/artifacts" -name "$t-*" -newer "$stamp" 2>/dev/null)
	if [ "$rc" -ne 0 ] || [ -n "$found" ] ||
		grep -q 'ERROR: \(AddressSanitizer\|LeakSanitizer\|libFuzzer\)\|runtime error:' "$log"; then
		status=1
		echo "fuzz: FAIL: fuzz_$t found a problem; reproducers:"
		printf '%s\n' "$found" | sed 's/^/  /'
		grep -A 25 'ERROR:\|runtime error:' "$log" | head -n 40
		echo "  (run '$FUZZ_DIR/fuzz_$t FILE' to reproduce one)"
	fi
done
[ "$status" -eq 0 ] && echo "fuzz: no crash, leak or UB report"
exit "$status"
