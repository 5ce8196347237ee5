#!/bin/sh
# Coverage sweep of the instruction forms (issue 17: no file ptxas 11.8
# compiles for sm_50 may fail in our encoder). gen_forms.c writes one small
# kernel per form, the forms derived from the ISA tables (src/isa). Then:
#  1. ptxas 13 (-arch=sm_75, the kernels say .target sm_50) decides which
#     forms are PTX at all;
#  2. of those, ptxas 11.8 -arch=sm_50 decides which sm_50 compiles;
#  3. each of those we must assemble (under --rules=ptxas: the forms ptxas
#     takes and the PTX ISA does not document, such as addc.u16, are
#     refused by default -- docs/rules-strict-vs-ptxas.md -- and this
#     sweep measures the encoder), and cuobjdump 11.8 must accept our
#     cubin of all of them (a form refused only together with the others
#     is named in a note);
# except the forms of tests/oracle/forms-known-gaps (one per line, "FORM
# # reason"), a reviewed list that may only shrink: a listed form we now
# assemble, or one ptxas 11.8 no longer compiles, fails the sweep too.
# The ptxas runs are batched (one module of many kernels; an error's line
# names its kernel) to stay fast on a shared machine.
#
# Usage: tests/oracle/forms-sweep.sh
# Environment: STEP > 1 (check-sanitize) leaves out the cuobjdump part; PROG, CC, PTXSURF_ORACLE_DIR, PTXAS13 (default
# /usr/local/cuda/bin/ptxas), FORMS_KEEP=1 keeps the work directory
# (forms.tsv, f_N.ptx, the accepted lists and our errors in ours.err);
# FORMS_REUSE=DIR takes the ptxas 13 and 11.8 verdicts from such a kept
# directory when its forms are the same (to iterate on the assembler).
# Exit: 0 all passed, 1 failures, 77 skipped (tools absent), 2 setup error.
set -u

here=$(cd "$(dirname "$0")" && pwd)
prog=${PROG:-./ptxsurf-as}
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
. "$here/lib/cuda118.sh"
cuda118_setup forms-sweep "no instruction form was compared"
ptxas13=${PTXAS13:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$ptxas13" ]; then
	echo "SKIP: forms-sweep: ptxas 13 not found at $ptxas13 (PTXAS13): no instruction form was compared"
	exit 77
fi
gaps=$here/forms-known-gaps

work=$(mktemp -d "${TMPDIR:-/tmp}/forms-sweep.XXXXXX") || exit 2
if [ "${FORMS_KEEP:-0}" = 1 ]; then
	echo "forms-sweep: keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi
${CC:-cc} -std=c11 -O1 -o "$work/gen" "$here/gen_forms.c" || exit 2
mkdir "$work/f" && "$work/gen" "$work/f" || exit 2

# module LIST OUT: the module of the kernels named in LIST (one N a line).
module() {
	sed 's|.*|'"$work"'/f/f_&.ptx|' "$1" | xargs cat "$work/f/head.ptx" >"$2"
}

# bad_kernels MODULE ERR: the kernel numbers the errors of ERR ("line L",
# or ours: "FILE:L:C: error") fall in, and "fatal N" for the kernel of a fatal (parsing) error.
bad_kernels() {
	awk 'FNR == NR {
		l = 0
		if (match($0, /line [0-9]+/))
			l = substr($0, RSTART + 5, RLENGTH - 5) + 0
		else if (match($0, /^[^ :]+:[0-9]+:[0-9]+: error/)) {
			split($0, f, ":"); l = f[2] + 0
		}
		if (l) { err[l] = 1; if ($0 ~ /fatal/) fat[l] = 1 }
		next
	}
	/^\.visible \.entry f_/ { k = $3; sub(/^f_/, "", k); sub(/\(.*/, "", k) }
	FNR in err && k != "" { print k; if (FNR in fat) print "fatal " k }' "$2" "$1" | sort -u
}

# accepted_one TOOL LIST OUT: the kernels of LIST the tool (a command
# taking a .ptx file) accepts, in OUT. Kernels before a fatal parsing error
# are taken as accepted when they had no error (confirmed later with one
# module of all the accepted kernels).
accepted_one() {
	tool=$1 pend=$work/pend.$$ ok=$3
	cp "$2" "$pend"
	: >"$ok"
	while [ -s "$pend" ]; do
		module "$pend" "$work/m.ptx"
		if $tool "$work/m.ptx" >"$work/m.err" 2>&1; then
			cat "$pend" >>"$ok"
			break
		fi
		bad_kernels "$work/m.ptx" "$work/m.err" >"$work/bad"
		fatal=$(sed -n 's/^fatal //p' "$work/bad" | head -1)
		if [ ! -s "$work/bad" ]; then
			# no error names a kernel: try them one by one
			while read -r n; do
				module_one=$work/f/one.ptx
				cat "$work/f/head.ptx" "$work/f/f_$n.ptx" >"$module_one"
				$tool "$module_one" >/dev/null 2>&1 && echo "$n" >>"$ok"
			done <"$pend"
			break
		fi
		awk -v fatal="${fatal:--1}" 'FNR == NR { if ($1 != "fatal") bad[$1] = 1; next }
			$1 == fatal { exit } !($1 in bad) { print }' "$work/bad" "$pend" >>"$ok"
		if [ -n "$fatal" ]; then
			awk -v fatal="$fatal" 'f { print } $1 == fatal { f = 1 }' "$pend" >"$pend.next"
		else
			: >"$pend.next"
		fi
		mv "$pend.next" "$pend"
	done
	rm -f "$pend"
}

# accepted TOOL LIST OUT: accepted_one on modules of at most 400 kernels
# (a parsing error makes ptxas read again what follows it).
accepted() {
	rm -f "$work"/chunk.*
	split -l 400 "$2" "$work/chunk."
	: >"$3.acc"
	for c in "$work"/chunk.*; do
		accepted_one "$1" "$c" "$c.ok"
		cat "$c.ok" >>"$3.acc"
		rm -f "$c" "$c.ok"
	done
	mv "$3.acc" "$3"
}

# confirmed TOOL LIST: LIST shrunk until one module of it all passes TOOL.
confirmed() {
	while :; do
		cp "$2" "$work/conf.in"
		accepted "$1" "$work/conf.in" "$2"
		cmp -s "$2" "$work/conf.in" && return
	done
}

ptxas13_accepts() { "$ptxas13" -arch=sm_75 -O0 "$1" -o /dev/null; }
ptxas118_compiles() { "$bin/ptxas" -arch=sm_50 -O0 "$1" -o "$work/p118.cubin"; }

cut -f1 "$work/f/forms.tsv" >"$work/all"
if [ -n "${FORMS_REUSE:-}" ] && cmp -s "$FORMS_REUSE/f/forms.tsv" "$work/f/forms.tsv"; then
	cp "$FORMS_REUSE/ptx" "$FORMS_REUSE/sm50" "$work/"
else
	accepted ptxas13_accepts "$work/all" "$work/ptx"
	confirmed ptxas13_accepts "$work/ptx"
	accepted ptxas118_compiles "$work/ptx" "$work/sm50"
	confirmed ptxas118_compiles "$work/sm50"
fi

# Ours: one module of them all (errors name their kernels); a kernel we
# refuse there is tried alone, so that a refusal of two kernels together
# is told from one of the form.
ours_assembles() { "$prog" --color=never --rules=ptxas -o "$work/ours.cubin" "$1"; }
accepted ours_assembles "$work/sm50" "$work/ours"
confirmed ours_assembles "$work/ours"
fail=0
: >"$work/ours.err"
LC_ALL=C sort "$work/ours" >"$work/ours.sorted"
LC_ALL=C sort "$work/sm50" | LC_ALL=C comm -23 - "$work/ours.sorted" | while read -r n; do
	cat "$work/f/head.ptx" "$work/f/f_$n.ptx" >"$work/one.ptx"
	if "$prog" --color=never --rules=ptxas -o "$work/one.cubin" "$work/one.ptx" >"$work/one.err" 2>&1; then
		echo "$n" >>"$work/ours"
		echo "forms-sweep: note: form $n assembles alone but not in one module with the others:" \
		     "$(awk -F '\t' -v n="$n" '$1 == n { print $2 }' "$work/f/forms.tsv")"
	else
		printf '%s\t%s\n' "$n" "$(grep -m1 -i 'error' "$work/one.err" | sed 's/^[^ ]* //')" >>"$work/ours.err"
	fi
done

# cuobjdump reads our cubins: modules of 20 kernels (its time grows
# faster than the number of kernels), a failing one kernel by kernel.
cuobjdump_reads() { "$prog" --color=never --rules=ptxas -o "$work/c.cubin" "$1" && "$bin/cuobjdump" -sass "$work/c.cubin" >/dev/null 2>&1; }
# Under check-sanitize (STEP > 1) this part, which runs the same cubins
# as make check's and tests cuobjdump rather than us, is left out.
rm -f "$work"/cchunk.*
if [ "${STEP:-1}" -gt 1 ]; then
	echo "forms-sweep: STEP=$STEP: cuobjdump's reading of our cubins left to make check"
else
	split -l 20 "$work/ours" "$work/cchunk."
fi
for ch in "$work"/cchunk.*; do
	[ -f "$ch" ] || continue
	module "$ch" "$work/c.ptx"
	cuobjdump_reads "$work/c.ptx" && continue
	while read -r n; do
		cat "$work/f/head.ptx" "$work/f/f_$n.ptx" >"$work/c1.ptx"
		cuobjdump_reads "$work/c1.ptx" && continue
		echo "FAIL: forms-sweep: cuobjdump 11.8 rejects our cubin of: $(awk -F '\t' -v n="$n" '$1 == n { print $2 }' "$work/f/forms.tsv")"
		fail=1
	done <"$ch"
done

# forms ptxas 11.8 compiles that we refuse, against the known gaps
form_of() { awk -F '\t' 'FNR == NR { want[$1] = 1; next } $1 in want { print $2 }' "$1" "$work/f/forms.tsv"; }
cut -f1 "$work/ours.err" >"$work/refused"
form_of "$work/refused" | LC_ALL=C sort >"$work/refused.forms"
form_of "$work/sm50" | LC_ALL=C sort >"$work/sm50.forms"
sed -n 's/[[:space:]]*#.*//; /./p' "$gaps" | LC_ALL=C sort >"$work/gaps"
LC_ALL=C comm -23 "$work/refused.forms" "$work/gaps" >"$work/new"
LC_ALL=C comm -13 "$work/refused.forms" "$work/gaps" >"$work/stale"
if [ -s "$work/new" ]; then
	echo "FAIL: forms-sweep: $(wc -l <"$work/new") forms ptxas 11.8 compiles for sm_50 that we refuse (not in forms-known-gaps):"
	while IFS= read -r form; do
		n=$(awk -F '\t' -v f="$form" '$2 == f { print $1; exit }' "$work/f/forms.tsv")
		printf '  %s\n    %s\n' "$form" "$(awk -F '\t' -v n="$n" '$1 == n { print $2 }' "$work/ours.err")"
	done <"$work/new" | head -80
	fail=1
fi
if [ -s "$work/stale" ]; then
	echo "FAIL: forms-sweep: forms-known-gaps lists forms we now assemble or ptxas 11.8 no longer compiles (remove them):"
	sed 's/^/  /' "$work/stale"
	fail=1
fi
printf 'forms-sweep: %d forms, %d PTX (ptxas 13), %d compiled by ptxas 11.8 sm_50, %d assembled by us, %d known gaps\n' \
	"$(wc -l <"$work/all")" "$(wc -l <"$work/ptx")" "$(wc -l <"$work/sm50")" "$(wc -l <"$work/ours")" "$(wc -l <"$work/gaps")"
[ "$fail" = 0 ] && echo "forms-sweep: passed"
exit "$fail"
