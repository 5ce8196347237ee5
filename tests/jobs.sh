#!/bin/sh
# -j N: checking and assembling files in parallel, and the kernels of one
# file (allocated, scheduled and encoded on worker threads while the next
# are lowered), must not change a byte. Every run below is made with -j 1
# and again with -j 2 and -j 4, and stdout, stderr, the exit status and
# every output file are compared. The inputs are the case and corpus files
# (clean, warning and error files mixed, a missing file and SASS files
# among them) and, one file at a time, modules of many kernels (one with a
# back-end error between lowering errors). Then the same
# runs with a ThreadSanitizer build of the program (built here in
# $B/tsan): a data race report is a failure; the TSan part is skipped,
# saying so, when the compiler has no TSan runtime (JOBS_TSAN=0 skips it
# too). Ends with "jobs: N passed, M failed".
cd "$(dirname "$0")/.." || exit 1
PROG=${PROG:-./ptxsurf-as}
case $PROG in /*) ;; *) PROG=$(pwd)/$PROG ;; esac
B=${B:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
MAKE=${MAKE:-make}
CC=${CC:-cc}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: jobs: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$(pwd)

# The inputs, as paths relative to the tree (the same in every run).
ls tests/corpus/*.ptx tests/cases/*/*.ptx >"$tmp/all"
ls tests/corpus/*sm_50*.ptx tests/cases/encode/*.ptx >"$tmp/asm"
mixed="tests/cases/check/$(ls tests/cases/check | grep '\.ptx$' | head -n 1) tests/no-such-file.ptx
	tests/cases/sass/annotations.sass tests/cases/sass/syntax-errors.sass $(head -n 20 "$tmp/asm" | tr '\n' ' ')"
[ "$(wc -l <"$tmp/all")" -gt 300 ] && ok || bad "too few inputs found: $(wc -l <"$tmp/all")"
# more SASS files (done by the main thread) in a row than the pool runs ahead
sass12=$(for i in 1 2 3 4 5 6 7 8 9 10 11 12; do printf 'tests/cases/sass/annotations.sass '; done)
interleaved="$(head -n 3 "$tmp/asm" | tr '\n' ' ') $sass12 $sass12 $(sed -n '4,9p' "$tmp/asm" | tr '\n' ' ')"
# one file of many kernels (about 40); runs name its output (-o), which
# then lands in the run's directory
mkdir -p "$tmp/gen"
sh bench/gen-ptx.sh surface 240000 sm_50 >"$tmp/gen/kernels.ptx"
kernels=$tmp/gen/kernels.ptx
errs=tests/cases/encode/kernel-jobs-errors.ptx

# same NAME PROG ARGS...: runs ARGS in a fresh copy of the inputs with
# -j 1, -j 2 and -j 4, and compares stdout, stderr, status and the files
# written.
same() {
	name=$1 prog=$2
	shift 2
	for j in 1 2 4; do
		d=$tmp/run-$j
		rm -rf "$d"
		mkdir -p "$d"
		# the inputs named, at their paths in the tree (outputs land next to them)
		for a in "$@"; do
			case $a in -*) ;; *) [ -f "$a" ] && echo "$a" ;; esac
		done | sort -u | xargs cp --parents -t "$d/"
		(cd "$d" && TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0" \
			timeout "${JOBS_TIMEOUT:-300}" "$prog" -j $j "$@" >"$tmp/out-$j" 2>"$tmp/err-$j"; echo $? >"$tmp/rc-$j")
		(cd "$d" && find . -type f | sort | xargs cksum) >"$tmp/files-$j"
	done
	if grep -q 'ThreadSanitizer' "$tmp/err-2" "$tmp/err-4"; then
		bad "$name: ThreadSanitizer report"
		grep -h -A12 'WARNING: ThreadSanitizer' "$tmp/err-2" "$tmp/err-4" | head -n 30
		return
	fi
	for j in 2 4; do
		for k in out err rc files; do
			if cmp -s "$tmp/$k-1" "$tmp/$k-$j"; then ok; else
				bad "$name: -j $j $k differs from -j 1"
				diff "$tmp/$k-1" "$tmp/$k-$j" | head -n 8
			fi
		done
	done
}

# The runs: a program and the arguments after -j N.
runs() {
	prog=$1
	same "check" "$prog" --check $(cat "$tmp/all")
	same "check -v --max-errors=2" "$prog" --check -v --max-errors=2 $(cat "$tmp/all")
	same "check json" "$prog" --check --diagnostics-format=json $(cat "$tmp/all")
	same "check sarif -Werror" "$prog" --check --diagnostics-format=sarif -Werror $(cat "$tmp/all")
	same "check --rules=ptxas" "$prog" --check --rules=ptxas --color=always $(cat "$tmp/all")
	same "assemble" "$prog" $(cat "$tmp/asm")
	same "assemble raw" "$prog" --format=raw --verify-sched $(cat "$tmp/asm")
	same "listing" "$prog" -S $(cat "$tmp/asm")
	same "mixed inputs" "$prog" $mixed
	same "mixed inputs, check" "$prog" --check $mixed
	same "24 SASS files between PTX files" "$prog" --check $interleaved
	same "one file, kernels on threads" "$prog" --verify-sched "$kernels" -o kernels.cubin
	same "one file, kernels on threads, listing" "$prog" -S --format=raw "$kernels" -o kernels.bin
	same "one file, back-end and lowering errors" "$prog" $errs
	same "one file, errors, --max-errors=1" "$prog" --max-errors=1 --diagnostics-format=json $errs
	# the last: lowering errors after the kernels (.target sm_90)
	for f in tests/cases/encode/sfu-reg.ptx tests/cases/encode/idiv.ptx \
		tests/corpus/nvcc-compute_90-lineinfo-surf_layered.ptx; do
		same "one file: $f" "$prog" -S $f
	done
}
runs "$PROG"

# Input order, not completion order: -j 4 over a list is the concatenation
# of one run per file (the diagnostics of each file in its place).
head -n 60 "$tmp/all" >"$tmp/some"
: >"$tmp/one-by-one"
while read -r f; do "$PROG" -j 1 --check -v "$f" 2>>"$tmp/one-by-one"; done <"$tmp/some"
"$PROG" -j 4 --check -v $(cat "$tmp/some") 2>"$tmp/together"
cmp -s "$tmp/one-by-one" "$tmp/together" && ok || bad "-j 4 output is not the files' outputs in input order"
# the status is the worst of the files'
"$PROG" -j 4 --check tests/cases/encode/add-sub.ptx tests/no-such-file.ptx tests/cases/encode/add-sub.ptx 2>/dev/null
[ $? = 2 ] && ok || bad "-j 4 with a missing file does not exit 2"
"$PROG" -j 4 --check tests/cases/encode/add-sub.ptx tests/cases/encode/add-sub.ptx 2>/dev/null
[ $? = 0 ] && ok || bad "-j 4 on clean files does not exit 0"

# Option errors.
for a in "-j 0" "-j x" "-j" "--jobs=" "-j2000" "--jobs=-1"; do
	"$PROG" $a --check tests/cases/encode/add-sub.ptx >/dev/null 2>"$tmp/err"
	[ $? = 2 ] && grep -q 'number of jobs' "$tmp/err" && ok || bad "'$a' is not a usage error"
done
for a in "-j3" "--jobs=3" "-j 3"; do
	"$PROG" $a --check tests/cases/encode/add-sub.ptx tests/cases/encode/add-sub.ptx && ok || bad "'$a' refused"
done
"$PROG" --help | grep -q -- '--jobs=N' && ok || bad "--help does not list --jobs"
grep -q 'jobs=' docs/ptxsurf-as.1 && ok || bad "the man page does not describe --jobs"

# ThreadSanitizer build: the worker pool and everything it runs.
. tests/tsan-build.sh
tsan_build jobs "${JOBS_TSAN:-1}" JOBS_TSAN
case $? in
0) ok
   runs "$B/tsan/ptxsurf-as" ;;
2) bad "the ThreadSanitizer build failed" ;;
esac

echo "jobs: $pass passed, $fail failed"
[ $fail -eq 0 ]
