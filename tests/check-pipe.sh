#!/bin/sh
# --check of one file with -j 2 runs the checker on a thread of its own
# behind the parser (src/driver/check_pipe.c); it must not change a byte.
# Each file is checked alone (several files would go to the file pool
# instead) with -j 1 and -j 2, and stdout, stderr and the exit status are
# compared: every case and corpus file in text and one more of JSON, SARIF
# with -Werror and --rules=ptxas, -v with --max-errors=2; then generated
# files of every bench shape (many functions, one huge function streamed
# statement by statement, nvcc-like, surface) clean and spoiled: a syntax
# error early, in the middle and inside the huge body, semantic errors all
# over with and without --max-errors, a lexical error, a header directive
# after the items (the whole-module path) - in text, JSON and SARIF. Then
# a ThreadSanitizer build (in $B/tsan, shared with tests/jobs.sh) over the
# generated files: a data race report is a failure; that part is skipped,
# saying so, without a TSan runtime (CHECK_PIPE_TSAN=0 skips it too).
# Ends with "check-pipe: N passed, M failed".
cd "$(dirname "$0")/.." || exit 1
PROG=${PROG:-./ptxsurf-as}
case $PROG in /*) ;; *) PROG=$(pwd)/$PROG ;; esac
B=${B:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
MAKE=${MAKE:-make}
CC=${CC:-cc}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: check-pipe: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same PROG FILE ARGS...: --check of FILE with -j 1 and -j 2 agree.
same() {
	prog=$1 file=$2
	shift 2
	for j in 1 2; do
		TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0" \
			"$prog" -j $j --check "$@" "$file" >"$tmp/out-$j" 2>"$tmp/err-$j"
		echo $? >"$tmp/rc-$j"
	done
	if grep -q 'ThreadSanitizer' "$tmp/err-2"; then
		bad "$file $*: ThreadSanitizer report"
		grep -h -A12 'WARNING: ThreadSanitizer' "$tmp/err-2" | head -n 30
		return
	fi
	for k in out err rc; do
		if cmp -s "$tmp/$k-1" "$tmp/$k-2"; then ok; else
			bad "$file $*: -j 2 $k differs from -j 1"
			diff "$tmp/$k-1" "$tmp/$k-2" | head -n 8
		fi
	done
}

# The case and corpus files.
n=0
for f in tests/corpus/*.ptx tests/cases/*/*.ptx; do
	same "$PROG" "$f"
	case $((n % 4)) in
	0) same "$PROG" "$f" --diagnostics-format=json ;;
	1) same "$PROG" "$f" --diagnostics-format=sarif -Werror ;;
	2) same "$PROG" "$f" --rules=ptxas --color=always ;;
	3) same "$PROG" "$f" -v --max-errors=2 ;;
	esac
	n=$((n + 1))
done
[ $n -gt 1000 ] && ok || bad "too few case and corpus files: $n"

# Generated files: each shape clean, then spoiled.
g=$tmp/gen
mkdir -p "$g"
sh bench/gen-ptx.sh many 400000 >"$g/many.ptx"
sh bench/gen-ptx.sh huge 1200000 >"$g/huge.ptx"
sh bench/gen-ptx.sh nvcc 300000 >"$g/nvcc.ptx"
sh bench/gen-ptx.sh surface 300000 sm_50 >"$g/surface.ptx"
lines() { wc -l <"$1"; }
# at LINE of FILE, TEXT as a line of its own
insert() { awk -v at="$2" -v text="$3" 'NR == at { print text } { print }' "$1"; }
insert "$g/many.ptx" 40 '	add.s32 %r1, , %r2;' >"$g/many-syntax-early.ptx"
insert "$g/many.ptx" $(($(lines "$g/many.ptx") / 2)) '	add.s32 %r1, %r2 %r3;' >"$g/many-syntax-middle.ptx"
insert "$g/huge.ptx" $(($(lines "$g/huge.ptx") / 2)) '	mov.u32 %r1 %r2;' >"$g/huge-syntax.ptx"
insert "$g/many.ptx" $(($(lines "$g/many.ptx") / 3)) '	mov.u32 %r1, %r2; ` ' >"$g/many-lexical.ptx"
# semantic errors all over: an unknown type every 97th line, a missing
# label every 89th
awk 'NR % 97 == 0 { sub(/\.s32/, ".s31") } NR % 89 == 0 { sub(/\$L_/, "$M_") } { print }' \
	"$g/many.ptx" >"$g/many-errors.ptx"
awk 'NR % 97 == 0 { sub(/\.s32/, ".s31") } NR % 89 == 0 { sub(/\$L_/, "$M_") } { print }' \
	"$g/huge.ptx" >"$g/huge-errors.ptx"
{ cat "$g/many.ptx"; echo '.address_size 64'; } >"$g/many-late-header.ptx"

gen_runs() {
	prog=$1
	for f in "$g"/*.ptx; do
		same "$prog" "$f"
		same "$prog" "$f" --diagnostics-format=json --max-errors=1
		same "$prog" "$f" --diagnostics-format=sarif --rules=ptxas
		same "$prog" "$f" -v --max-errors=5
	done
}
gen_runs "$PROG"
# the spoiled files must say something (or the comparison proves little)
for f in many-syntax-early many-syntax-middle huge-syntax many-lexical many-errors huge-errors; do
	"$PROG" -j 2 --check "$g/$f.ptx" 2>"$tmp/err"
	[ $? = 1 ] && [ -s "$tmp/err" ] && ok || bad "$f.ptx: no error reported"
done
[ $(grep -c 'error' "$tmp/err") -gt 100 ] && ok || bad "huge-errors.ptx: too few errors to compare"

# ThreadSanitizer build: the pipeline over the generated files.
. tests/tsan-build.sh
tsan_build check-pipe "${CHECK_PIPE_TSAN:-1}" CHECK_PIPE_TSAN
case $? in
0) ok
   gen_runs "$B/tsan/ptxsurf-as" ;;
2) bad "the ThreadSanitizer build failed" ;;
esac

echo "check-pipe: $pass passed, $fail failed"
[ $fail -eq 0 ]
