#!/bin/sh
# Differential test of the operand-count table (src/operand_counts.def):
# generates for every row a module with min-1, min, max and max+1 operands
# (tests/oracle/operand-count/gen_operand_probes.c), runs NVIDIA ptxas 13
# and `ptxsurf-as --check --rules=ptxas` on each and compares accept/reject.
# Prints one line per disagreement and ends with
#   operand-count-diff: N passed, M failed
# Exit 77 (skip) when ptxas is not installed, 1 on any disagreement. A probe
# the row says is valid but ptxas rejects is a failure too (the example is
# wrong or the row is), since that is how the table would reject valid PTX.
#
# Environment: PROG (default ./ptxsurf-as), PTXAS, CC, JOBS, KEEP=DIR keeps
# the probes and both tools' output, FILTER=REGEX runs only probes whose
# "row opcode" matches, STEP=N runs every Nth probe only (make
# check-sanitize), MSGS=1 prints ptxas's first message for each failure.
set -u

if [ "${1:-}" = "--one" ]; then
	f=${2:-}
	[ -f "$f" ] || exit 0
	target=$(sed -n 's/^\.target[ 	]*\([A-Za-z0-9_]*\).*/\1/p' "$f" | head -n 1)
	num=$(echo "$target" | sed -n 's/^sm_\([0-9]*\)[a-z]*$/\1/p')
	arch=sm_75
	if [ -n "$num" ] && [ "$num" -gt 75 ]; then arch=$target; fi
	"$PTXAS" -arch="$arch" "$f" -o /dev/null >"$f.ptxas" 2>&1
	rc=$?
	desc=$(sed -n '1s|^// case: ||p' "$f")
	# ptxas exits 255 on errors; 129..192 is death by a signal.
	if [ $rc -eq 0 ]; then theirs=accept; elif [ $rc -gt 128 ] && [ $rc -le 192 ]; then theirs=crash; else theirs=reject; fi
	if "$PROG" --check --rules=ptxas --color=never "$f" >/dev/null 2>"$f.ours"; then ours=accept; else ours=reject; fi
	table=$(echo "$desc" | sed -n 's/.*(table: \([a-z]*\))$/\1/p')
	if { [ "$theirs" = "$ours" ] || { [ "$theirs" = crash ] && [ "$ours" = reject ]; }; } &&
		{ [ "$table" = reject ] || [ "$theirs" = accept ]; }; then
		echo "pass $f"
	else
		msg=""
		[ "${MSGS:-}" = 1 ] && msg=" | ptxas: $(grep -m1 -E 'error|fatal' "$f.ptxas") | ours: $(grep -m1 error "$f.ours")"
		echo "FAIL ptxas=$theirs ours=$ours: $desc$msg"
	fi
	exit 0
fi

PROG=${PROG:-./ptxsurf-as}
if [ -z "${PTXAS:-}" ]; then
	PTXAS=$(command -v ptxas 2>/dev/null || true)
	[ -z "$PTXAS" ] && [ -x /usr/local/cuda/bin/ptxas ] && PTXAS=/usr/local/cuda/bin/ptxas
fi
if [ -z "${PTXAS:-}" ] || [ ! -x "$PTXAS" ]; then
	echo "operand-count-diff: SKIP: ptxas not found (set PTXAS=/path/to/ptxas); the operand-count table is NOT verified"
	exit 77
fi
if [ ! -x "$PROG" ]; then
	echo "operand-count-diff: error: $PROG not built" >&2
	exit 2
fi
case $PROG in /*) ;; *) PROG=$(pwd)/$PROG ;; esac
export PROG PTXAS

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${KEEP:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/cases"
${CC:-cc} -std=c11 -O1 -iquote "$root/src" -o "$work/gen" "$here/operand-count/gen_operand_probes.c" || exit 2
"$work/gen" "$work/cases" >/dev/null || exit 2

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
step=${STEP:-1}
if [ -n "${FILTER:-}" ]; then
	grep -l -E -- "^// case: ($FILTER) " "$work"/cases/*.ptx
else
	ls "$work"/cases/*.ptx
fi | awk -v step="$step" '(NR - 1) % step == 0' | xargs -P "$jobs" -n 1 sh "$0" --one >"$work/results"

grep -v '^pass ' "$work/results" | sort
pass=$(grep -c '^pass ' "$work/results")
fail=$(grep -c '^FAIL ' "$work/results")
echo "operand-count-diff: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
