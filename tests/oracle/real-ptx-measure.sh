#!/bin/sh
# How much real compiler PTX assembles for sm_50, counted by what stops it.
#
# Takes every file of tests/corpus/ and tests/corpus32/ (32-bit code; or the
# files/directories given), and
# retargets it as a user would: `.target sm_50` (the target's options such
# as texmode_independent or debug kept) at the lowest .version that works
# for ptxas 11.8 (the lowest the file needs as --print-requirements says,
# at least 4.0; else the file's own, at most 7.8; else 7.8). Files ptxas
# 11.8 does not compile for sm_50 in any of these versions are left out
# (counted as "ptxas refuses"); a file that calls or uses an .extern symbol
# is compiled with ptxas -c (a relocatable object) and assembled by us with
# -c too. Each kept file is assembled by ptxsurf-as and counted by its first
# blocker: the first error diagnostic, names in quotes and numbers masked.
# A second table counts the files each blocker occurs in at all (fixing
# one blocker shows the next one in the same file). Files we assemble are
# listed by cuobjdump -sass and nvdisasm, and --verify-sched must pass:
# a failure there is a blocker of its own ("FAIL: cubin rejected by ...").
#
# As a test (make check runs it): a file passes when it assembles into a
# cubin that cuobjdump -sass, nvdisasm and --verify-sched accept, or stops
# at an error diagnostic; it fails when a cubin is rejected, when we exit
# with no error diagnostic, or crash. Exit 0 with no failures, 1 with
# some, 77 when the CUDA 11.8 tools are absent, 2 on a setup error.
#
# Usage: tests/oracle/real-ptx-measure.sh [FILE|DIR...]
# Environment: PROG, PTXSURF_ORACLE_DIR, JOBS (default 2), MEASURE_KEEP=1
# keeps the work directory (the retargeted files and our diagnostics),
# MEASURE_LIST=1 prints every file with its verdict, STEP (check-sanitize:
# every STEP-th file).
set -u

here=$(cd "$(dirname "$0")" && pwd)
prog=${PROG:-./ptxsurf-as}
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac

. "$here/lib/cuda118.sh"

[ "${1:-}" = "--one" ] || bin=
cuda118_setup real-ptx-measure "no real PTX file was measured"

# retarget SRC DST VERSION: SRC with .target sm_50 (target options kept,
# sm_XX and compute_XX names dropped) and .version VERSION.
retarget() {
	awk -v ver="$3" '
	/^[ \t]*\.version[ \t]/ && !v { print ".version " ver; v = 1; next }
	/^[ \t]*\.target[ \t]/ && !t {
		line = $0; sub(/^[ \t]*\.target[ \t]+/, "", line); sub(/[ \t]*\/\/.*$/, "", line)
		n = split(line, opt, /[ \t]*,[ \t]*/); out = "sm_50"
		for (i = 1; i <= n; i++) if (opt[i] != "" && opt[i] !~ /^(sm|compute)_/) out = out ", " opt[i]
		if (!v) print ".version " ver
		print ".target " out; t = 1; v = 1; next
	}
	{ print }' "$1" >"$2"
}

# ptxas_ok FILE: ptxas 11.8 compiles FILE for sm_50 (-c when it needs
# external symbols: then "relocatable" is printed). No -O option, as a user
# runs it: ptxas then optimises (-O3) unless the file carries debug
# information (.target ..., debug: nvcc -G), which it compiles at -O0; an
# explicit -O3 refuses such files ("Optimized debugging not supported"),
# and counting them out hid 35 of the corpus's compilable files.
ptxas_ok() {
	if "$bin/ptxas" -arch=sm_50 -o "$1.ptxas.cubin" "$1" >"$1.ptxas.log" 2>&1; then
		return 0
	fi
	if "$bin/ptxas" -arch=sm_50 -c -o "$1.ptxas.cubin" "$1" >"$1.ptxas.log" 2>&1; then
		echo relocatable
		return 0
	fi
	return 1
}

# nvdisasm under a time and memory limit: its control-flow analysis runs
# away on some files, ptxas's own cubin as much as ours (corpus32's
# clang14-sm_50-O2-m32-clang_kernels: killed for memory, or still running
# after 60 s, on both cubins).
nvdisasm_ok() {
	(ulimit -v 2097152 2>/dev/null; timeout 60 "$bin/nvdisasm" "$@" >/dev/null 2>&1)
}

# Our cubin of $1.ptx is judged by nvdisasm -c (no control-flow analysis)
# when plain nvdisasm fails on ptxas 11.8's cubin of the same file too.
nvdisasm_fails_on_ptxas_too() {
	[ -f "$1.ptx.ptxas.cubin" ] && ! nvdisasm_ok "$1.ptx.ptxas.cubin" && nvdisasm_ok -c "$1.cubin" &&
		echo "NOTE: nvdisasm fails on ptxas 11.8's cubin of $(basename "$1") too: ours listed with -c" >&2
}

# A diagnostic line as its bucket: the message after "error: ", with the
# quoted names of symbols and registers masked (an instruction's name is
# kept: it says which family is missing).
bucket_awk='
function bucket(m) {
	sub(/^.*: error: /, "", m)
	if (m !~ /instruction \047/) gsub(/\047[^\047]*\047/, "\047_\047", m)
	return m
}'

# The first error diagnostic of a log, bucketed.
first_blocker() {
	awk "$bucket_awk"'
	/: error: / {
		m = bucket($0)
		print m; exit
	}' "$1"
}

all_blockers() {
	awk "$bucket_awk"'
	/: error: / {
		m = bucket($0)
		if (!seen[m]++) print m
	}' "$1"
}

# One file: prints "VERDICT<TAB>FILE" lines into $work/verdicts/ and the
# blockers it contains into $work/blockers/.
one() {
	src=$1
	name=$(basename "$src" .ptx)
	w=$work/files/$name
	lowest=$("$prog" --print-requirements "$src" 2>/dev/null | awk '/^\.version/ { print $2; exit }')
	orig=$(awk '/^[ \t]*\.version[ \t]/ { print $2; exit }' "$src")
	cands=
	for c in "$lowest" "$orig" 7.8; do
		[ -n "$c" ] || continue
		c=$(echo "$c" | awk -F. '{ v = $1 * 10 + $2; if (v < 40) v = 40; if (v > 78) v = 78; printf "%d.%d\n", v / 10, v % 10 }')
		case " $cands " in *" $c "*) ;; *) cands="$cands $c" ;; esac
	done
	mode=
	for c in $cands; do
		retarget "$src" "$w.ptx" "$c"
		if mode=$(ptxas_ok "$w.ptx"); then
			break
		fi
		mode=refused
	done
	if [ "$mode" = refused ]; then
		printf 'ptxas refuses\t%s\n' "$name" >"$work/verdicts/$name"
		return
	fi
	flags=
	if [ "$mode" = relocatable ]; then
		if "$prog" --help 2>&1 | grep -q '^  -c[ ,]'; then
			flags=-c
		else
			printf 'needs relocatable output (-c)\t%s\n' "$name" >"$work/verdicts/$name"
			echo "needs relocatable output (-c)" >"$work/blockers/$name"
			return
		fi
	fi
	"$prog" $flags --verify-sched -o "$w.cubin" "$w.ptx" >"$w.log" 2>&1
	rc=$?
	if [ $rc -gt 1 ]; then
		printf 'FAIL: ptxsurf-as exits %s\t%s\n' "$rc" "$name" >"$work/verdicts/$name"
		echo "FAIL: ptxsurf-as exits $rc" >"$work/blockers/$name"
		return
	fi
	if [ $rc -eq 0 ]; then
		if ! "$bin/cuobjdump" -sass "$w.cubin" >/dev/null 2>&1; then
			v="FAIL: cubin rejected by cuobjdump -sass"
		elif ! nvdisasm_ok "$w.cubin" && ! nvdisasm_fails_on_ptxas_too "$w"; then
			v="FAIL: cubin rejected by nvdisasm"
		else
			v=assembles
		fi
		printf '%s\t%s\n' "$v" "$name" >"$work/verdicts/$name"
		[ "$v" = assembles ] || echo "$v" >"$work/blockers/$name"
		return
	fi
	b=$(first_blocker "$w.log")
	[ -n "$b" ] || b="FAIL: exit 1 with no error diagnostic"
	printf '%s\t%s\n' "$b" "$name" >"$work/verdicts/$name"
	all_blockers "$w.log" >"$work/blockers/$name"
}

if [ "${1:-}" = "--one" ]; then
	one "$2"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/real-ptx-measure.XXXXXX") || exit 2
if [ "${MEASURE_KEEP:-0}" = 1 ]; then
	echo "real-ptx-measure: keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/files" "$work/verdicts" "$work/blockers"

[ $# -gt 0 ] || set -- "$here/../corpus" "$here/../corpus32"
for a in "$@"; do
	if [ -d "$a" ]; then
		find "$a" -name '*.ptx' | sort
	else
		echo "$a"
	fi
done | awk -v step="${STEP:-1}" '(NR - 1) % step == 0' >"$work/inputs"   # STEP: check-sanitize samples

export bin prog work
xargs -P "${JOBS:-2}" -I{} sh "$0" --one {} <"$work/inputs"

cat "$work"/verdicts/* >"$work/all"
total=$(wc -l <"$work/inputs")
refused=$(grep -c '^ptxas refuses	' "$work/all")
kept=$((total - refused))
ok=$(grep -c '^assembles	' "$work/all")
echo "real-ptx-measure: $total files, ptxas 11.8 compiles $kept for sm_50; we assemble $ok of them"
echo
echo "files by first blocker:"
grep -v '^ptxas refuses	' "$work/all" | cut -f1 | sort | uniq -c | sort -rn
echo
echo "files containing each blocker:"
cat "$work"/blockers/* 2>/dev/null | sort | uniq -c | sort -rn
if [ "${MEASURE_LIST:-0}" = 1 ]; then
	echo
	sort -t '	' -k2 "$work/all"
fi
failed=$(grep -c '^FAIL: ' "$work/all")
grep '^FAIL: ' "$work/all"
echo "real-ptx-measure: $((kept - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
