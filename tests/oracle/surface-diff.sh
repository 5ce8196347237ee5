#!/bin/sh
# Differential test of the surface (suld/sust/sured/suq), st and module
# header rules: generates the case space (gen_surface_cases.c), runs NVIDIA
# ptxas 13 and `ptxsurf-as --check --rules=ptxas` on every case and compares
# the accept/reject verdicts. Prints one line per disagreement and ends with
#   surface-diff: N passed, M failed
# Exit 77 (skip) when ptxas is not installed, 1 on any disagreement. A case
# ptxas crashes on (killed by a signal: exit status 129..192; its ordinary
# errors exit with 255) must be rejected by ptxsurf-as: accepting it is a
# failure, listed as FAIL ... ptxas=crash.
#
# Environment: PROG (default ./ptxsurf-as), PTXAS (default: ptxas on PATH or
# /usr/local/cuda/bin/ptxas), CC, JOBS (parallel jobs), KEEP=DIR keeps the
# cases and verdicts, STRICT=1 also lists the cases only --rules=strict
# rejects, FILTER=REGEX runs only cases whose description starts with a
# match (e.g. FILTER='st |header'), STEP=N runs every Nth case only (a quick
# sample of the whole space; the full run takes about ten minutes on two cores).
set -u

if [ "${1:-}" = "--one" ]; then
	# Worker: one case file -> "pass|FAIL|STRICT <file> <description>".
	f=${2:-}
	[ -f "$f" ] || exit 0
	target=$(sed -n 's/^\.target[ 	]*\([A-Za-z0-9_]*\).*/\1/p' "$f" | head -n 1)
	num=$(echo "$target" | sed -n 's/^\(sm\|compute\)_\([0-9]*\)[a-z]*$/\2/p')
	arch=sm_75
	if [ -n "$num" ] && [ "$num" -gt 75 ]; then
		arch=$(echo "$target" | sed 's/^compute_/sm_/')
	fi
	"$PTXAS" -arch="$arch" "$f" -o /dev/null >"$f.ptxas" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then theirs=accept; elif [ $rc -gt 128 ] && [ $rc -le 192 ]; then theirs=crash; else theirs=reject; fi
	if "$PROG" --check --rules=ptxas --color=never "$f" >/dev/null 2>"$f.ours"; then ours=accept; else ours=reject; fi
	desc=$(sed -n '1s|^// case: ||p' "$f")
	if [ "$theirs" = "$ours" ] || { [ "$theirs" = crash ] && [ "$ours" = reject ]; }; then
		echo "pass $f ptxas=$theirs"
	else
		echo "FAIL $f ptxas=$theirs ours=$ours: $desc"
	fi
	if [ "${STRICT:-}" = 1 ] && [ "$theirs" = accept ]; then
		if ! "$PROG" --check --color=never "$f" >/dev/null 2>"$f.strict"; then
			rules=$(sed -n 's/.*\[\([a-z-]*\)\]$/\1/p' "$f.strict" | sort -u | tr '\n' ' ')
			echo "STRICT $f [$rules]: $desc"
		fi
	fi
	exit 0
fi

. "$(dirname "$0")/lib/ptxas-probe.sh"
oracle_setup surface-diff

work=${KEEP:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/cases"
here=$(dirname "$0")
${CC:-cc} -std=c11 -O1 -o "$work/gen" "$here/gen_surface_cases.c" || exit 2
"$work/gen" "$work/cases" >/dev/null || exit 2

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
step=${STEP:-1}
if [ -n "${FILTER:-}" ]; then
	grep -l -E -- "^// case: ($FILTER)" "$work"/cases/*.ptx
else
	ls "$work"/cases/*.ptx
fi | awk -v step="$step" '(NR - 1) % step == 0' | xargs -n 1 -P "$jobs" sh "$0" --one >"$work/verdicts"

grep '^FAIL' "$work/verdicts" | sort
if [ "${STRICT:-}" = 1 ]; then
	grep '^STRICT' "$work/verdicts" | sort
	echo "surface-diff: $(grep -c '^STRICT' "$work/verdicts") cases rejected only by --rules=strict"
fi
passed=$(grep -c '^pass' "$work/verdicts")
failed=$(grep -c '^FAIL' "$work/verdicts")
echo "surface-diff: ptxas crashed on $(grep -c '^pass.*ptxas=crash' "$work/verdicts") cases (all rejected by ptxsurf-as)"
echo "surface-diff: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
