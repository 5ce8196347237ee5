#!/bin/sh
# Mutation sweep: single-point edits of the real compiler PTX in
# tests/corpus/ (tests/oracle/mutation/mutate.awk: a register of the wrong
# width or kind, an immediate where a register belongs, a dropped or
# swapped modifier, another state space, a malformed address, another
# vector width, a predicate mixed up with a register, a rounding modifier
# added or removed), each judged by NVIDIA ptxas 13 and by
# `ptxsurf-as --check` in --rules=ptxas and --rules=strict.
#
# Prints the disagreements of ptxas mode, then per class
#   CLASS  edits  ptxas-rejects  recall  strict-recall  ptxas-accepts  precision  strict-extra
# where recall is the share of ptxas's rejects we reject, precision the
# share of ptxas's accepts we accept (--rules=ptxas), strict-extra the
# accepts --rules=strict rejects (docs/rules-strict-vs-ptxas.md says why).
# Ends with "mutation-sweep: N passed, M failed", failed being the edits
# ptxas accepts and ptxas mode rejects plus any ptxsurf-as crash. Exit 77
# (skip) without ptxas; 1 on any such failure or when overall recall is
# below RECALL_MIN percent (default 98, the floor make check holds; the
# misses are listed as DIFF lines).
#
# make check runs the defaults, a sample of about 280 ptxas runs; a big
# sweep is e.g. FILES_EVERY=1 PER_CLASS=300 SEED=7.
# Environment: PROG, PTXAS, JOBS (default 2), CORPUS=DIR sweeps the *.ptx
# found under DIR recursively, in sorted order (default tests/corpus; e.g.
# real PTX kept outside the repository), MAX_BYTES=N leaves out files of N
# bytes or more (each ptxas run on a multi-megabyte file takes seconds, and
# such files would hold most of the candidate edits), FILES_EVERY=N uses every Nth
# corpus file (default 8), PER_CLASS=N edits per class (default 20),
# SEED (default 16), KEEP=DIR keeps the edits and both tools' output,
# MSGS=1 prints both tools' first error for each disagreement.
set -u

. "$(dirname "$0")/lib/ptxas-probe.sh"

# ptxas on one file: -c (no link) when the module calls functions it only
# declares, the way a relocatable build compiles it.
sweep_ptxas() {
	_c=
	grep -q '^[ 	]*\.extern[ 	]*\.func' "$1" && _c=-c
	oracle_ptxas_flags=$_c
	_target=$(sed -n 's/^\.target[ 	]*\([A-Za-z0-9_]*\).*/\1/p' "$1" | head -n 1)
	_num=$(echo "$_target" | sed -n 's/^sm_\([0-9]*\)[a-z]*$/\1/p')
	_arch=sm_75
	if [ -n "$_num" ] && [ "$_num" -gt 75 ]; then _arch=$_target; fi
	"$PTXAS" $_c -arch="$_arch" "$1" -o /dev/null >"$1.ptxas" 2>&1
	_rc=$?
	if [ $_rc -eq 0 ]; then theirs=accept; elif [ $_rc -gt 128 ] && [ $_rc -le 192 ]; then theirs=crash; else theirs=reject; fi
}

# ours MODE FILE: accept, reject or crash (death by a signal).
sweep_ours() {
	"$PROG" --check --rules="$1" --color=never "$2" >/dev/null 2>"$2.ours-$1"
	_rc=$?
	if [ $_rc -eq 0 ]; then echo accept; elif [ $_rc -gt 128 ]; then echo crash; else echo reject; fi
}

if [ "${1:-}" = "--one" ]; then
	f=${2:-}
	[ -f "$f" ] || exit 0
	sweep_ptxas "$f"
	ours=$(sweep_ours ptxas "$f")
	strict=$(sweep_ours strict "$f")
	desc=$(sed -n '1s|^// case: ||p' "$f")
	[ "$theirs" = crash ] && theirs=reject
	echo "R $theirs $ours $strict $desc"
	if [ "$theirs" != "$ours" ] && [ "${MSGS:-}" = 1 ]; then
		echo "M $desc | ptxas: $(grep -m1 -E 'error|fatal' "$f.ptxas") | ours: $(grep -m1 error "$f.ours-ptxas")"
	fi
	exit 0
fi

oracle_setup mutation-sweep
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${KEEP:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/bases" "$work/cases"
jobs=${JOBS:-2}

# The bases: the corpus files both ptxas and ptxsurf-as accept unchanged,
# each copied under its path below the corpus with / made __ (files in
# different directories may share a name).
corpus=$(cd "${CORPUS:-$root/tests/corpus}" && pwd) || exit 1
(cd "$corpus" && find . -name '*.ptx' -type f ${MAX_BYTES:+-size -"$MAX_BYTES"c} | sed 's|^\./||' | LC_ALL=C sort) |
	awk -v n="${FILES_EVERY:-8}" '(NR - 1) % n == 0' >"$work/base-list"
xargs -P "$jobs" -n 1 sh -c '
	. "$0/lib/ptxas-probe.sh"
	b="'"$corpus"'/$1"; copy="'"$work"'/bases/$(echo "$1" | sed "s|/|__|g")"; cp "$b" "$copy"
	[ "$PROG" ] || exit 0
	if "$PTXAS" $(grep -q "^[ 	]*\.extern[ 	]*\.func" "$copy" && echo -c) -arch=sm_$(sed -n "s/^\.target[ 	]*sm_\([0-9]*\).*/\1/p" "$copy" | head -n 1 | awk "{print (\$1 > 75) ? \$1 : 75}")$(sed -n "s/^\.target[ 	]*sm_[0-9]*\([af]\{0,1\}\).*/\1/p" "$copy" | head -n 1) "$copy" -o /dev/null >/dev/null 2>&1 &&
	   "$PROG" --check --rules=ptxas "$copy" >/dev/null 2>&1; then :; else echo "$1" >>"'"$work"'/bases-skipped"; rm -f "$copy"; fi
' "$(dirname "$0")" <"$work/base-list"
nbases=$(ls "$work"/bases | wc -l)

# Every candidate edit, then a seeded sample of PER_CLASS per class.
for b in "$work"/bases/*.ptx; do
	awk -f "$(dirname "$0")/mutation/mutate.awk" "$b" | awk -v f="$(basename "$b")" -F '\t' '{ print $1 "\t" f "\t" $2 "\t" $3 }'
done | awk -F '\t' -v seed="${SEED:-16}" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' | sort -k1,1 |
	awk -F '\t' -v per="${PER_CLASS:-20}" '++n[$2] <= per { print $2 "\t" $3 "\t" $4 "\t" $5 }' >"$work/picked"
i=0
while IFS='	' read -r cls base line text; do
	i=$((i + 1))
	out="$work/cases/$(printf '%05d' $i).ptx"
	{
		printf '// case: %s %s:%s: %s\n' "$cls" "$base" "$line" "$(echo "$text" | sed 's/^[ 	]*//')"
		awk -v n="$line" -v t="$text" 'NR == n { print t; next } { print }' "$work/bases/$base"
	} >"$out"
done <"$work/picked"

ls "$work"/cases/*.ptx | xargs -P "$jobs" -n 1 sh "$0" --one >"$work/results"

echo "mutation-sweep: $nbases base files, $i edits"
grep '^M ' "$work/results" | sed 's/^M /  /' | sort
awk '$1 == "R" && $2 != $3 { printf "  DIFF ptxas=%s ours=%s: %s\n", $2, $3, substr($0, index($0, $5)) }' "$work/results" | sort
awk -v min="${RECALL_MIN:-98}" '
	$1 != "R" { next }
	{ cls = $5; edits[cls]++; all++
	  if ($3 == "crash" || $4 == "crash") crash++
	  if ($2 == "reject") { rej[cls]++; R++; if ($3 != "accept") { hit[cls]++; H++ } if ($4 != "accept") shit[cls]++ }
	  else { acc[cls]++; A++; if ($3 == "accept") { ok[cls]++; O++ } if ($4 != "accept") extra[cls]++ } }
	function pct(a, b) { return b ? sprintf("%.1f%%", 100 * a / b) : "-" }
	END {
		printf "  %-11s %6s %8s %8s %8s %8s %9s %7s\n", "class", "edits", "rejects", "recall", "strict", "accepts", "precision", "strict+"
		for (c in edits) printf "  %-11s %6d %8d %8s %8s %8d %9s %7d\n", c, edits[c], rej[c], pct(hit[c], rej[c]), pct(shit[c], rej[c]), acc[c], pct(ok[c], acc[c]), extra[c]
		printf "  %-11s %6d %8d %8s %8s %8d %9s\n", "all", all, R, pct(H, R), "", A, pct(O, A)
		printf "mutation-sweep: recall %s (floor %s%%), precision %s, %d crashes\n", pct(H, R), min, pct(O, A), crash
		printf "mutation-sweep: %d passed, %d failed\n", all - (A - O) - crash, (A - O) + crash
		if (crash || O < A || (R && 100 * H / R < min)) exit 1
	}' "$work/results"
