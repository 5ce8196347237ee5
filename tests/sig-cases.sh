#!/bin/sh
# The operand-signature table against its own cases: tests/sigs/gen_sig_cases.c
# derives from the rows of src/isa/operand_sigs.def (and the examples of
# src/isa/operand_counts.def) one case per judged operand: the valid
# example (table: accept) and the example with that operand of the wrong
# width or kind, or an immediate where it is written (table: reject).
# `ptxsurf-as --check --rules=ptxas` must accept the first and reject the
# others with [operand-type]; when NVIDIA ptxas 13 is installed it must give
# the table's verdict too (a row the table states wrongly fails here), and
# without it that half is skipped, said loudly. Prints one line per
# failure and ends with "sig-cases: N passed, M failed".
# Environment: PROG (default ./ptxsurf-as), PTXAS, CC, JOBS (default 2),
# KEEP=DIR keeps the cases and verdicts.
set -u

if [ "${1:-}" = "--one" ]; then
	f=$2
	want=$(sed -n '1s/.*(table: \([a-z]*\))$/\1/p' "$f")
	if "$PROG" --check --rules=ptxas --color=never "$f" >/dev/null 2>"$f.ours"; then ours=accept
	elif grep -q '\[operand-type\]' "$f.ours"; then ours=reject
	else ours=other; fi
	theirs=-
	if [ -n "$PTXAS" ]; then
		target=$(sed -n 's/^\.target[ 	]*\([A-Za-z0-9_]*\).*/\1/p' "$f")
		# ptxas 13 generates code for sm_75 and later; older .targets are
		# still parsed and checked as such.
		num=$(echo "$target" | sed -n 's/^sm_\([0-9]*\)[a-z]*$/\1/p')
		[ -n "$num" ] && [ "$num" -lt 75 ] && target=sm_75
		if "$PTXAS" -arch="$target" "$f" -o /dev/null >"$f.ptxas" 2>&1; then theirs=accept; else theirs=reject; fi
	fi
	desc=$(sed -n '1s|^// case: ||p' "$f")
	if [ "$ours" != "$want" ]; then
		echo "FAIL ours=$ours: $desc"
	elif [ "$theirs" != - ] && [ "$theirs" != "$want" ]; then
		echo "FAIL ptxas=$theirs: $desc"
	else
		echo "pass $desc"
	fi
	exit 0
fi

PROG=${PROG:-./ptxsurf-as}
case $PROG in /*) ;; *) PROG=$(pwd)/$PROG ;; esac
PTXAS=${PTXAS:-$(command -v ptxas 2>/dev/null || echo /usr/local/cuda/bin/ptxas)}
[ -x "$PTXAS" ] || PTXAS=
export PROG PTXAS
if [ -z "$PTXAS" ]; then
	echo "sig-cases: NVIDIA ptxas not found: checking ptxsurf-as against the table only (the ptxas half is SKIPPED)"
fi
work=${KEEP:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/cases"
here=$(dirname "$0")
${CC:-cc} -std=c11 -O1 -iquote "$here/../src" -o "$work/gen" "$here/sigs/gen_sig_cases.c" || exit 2
"$work/gen" "$work/cases" || exit 2
ls "$work"/cases/*.ptx | xargs -P "${JOBS:-2}" -n 1 sh "$0" --one >"$work/results"
grep '^FAIL' "$work/results" | sort
passed=$(grep -c '^pass' "$work/results")
failed=$(grep -c '^FAIL' "$work/results")
echo "sig-cases: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
