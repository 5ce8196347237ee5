#!/bin/sh
# The mutation check of the differential tests (docs/simulator.md): do
# they bite? For every kernel ptxsurf-as assembles from the golden kernels
# (tests/cases/encode), every mutant ptxsurf-mutate makes of our machine
# code -- one source register, comparison, immediate, stall count or
# scoreboard barrier changed at a time -- runs on the simulator with the
# inputs sim-diff.sh uses (launches of 1 and 2x64 threads -- a racy one as
# two threads alone --, seeds 1 and 2, the latency contract on; a
# one-thread run on SIM_INPUT_SETS input sets, the seed's and edge ones). A mutant is caught when some run writes other
# bytes than our unmutated code (which sim-diff.sh shows equal to ptxas's)
# or stops (a fault, poison reaching memory, a hazard).
#
# A survivor is judged independently: a functional mutant runs on six more
# input seeds, and one that changes a written value there is MISSED (the
# standard inputs are too weak), else equivalent (no input tells it apart);
# a stall or barrier mutant goes through ptxsurf-as --verify-sched (the
# static model of the same contract), and one it rejects is MISSED (the
# two models disagree), else equivalent. Caught timing mutants the static
# verifier accepts are counted as well (the dynamic model is stricter);
# survivors are counted apart when no run executes the mutated instruction
# (unreached: the kernel faults or branches before it, or its guard is
# off in every run; for a timing mutant, the instruction --verify-sched
# names as the hazard's reader), when the simulator
# catches them without its in-order pipe rule (the two models differ only
# there: ptxas relies on the rule, --verify-sched does not grant it), and
# when the SASS front end cannot read their listing back (a relocated
# MOV32I: unjudged).
#
# Usage: tests/sim/mutate.sh [FILE.ptx...]
# Environment: PROG, SIM, MUTATE (default $B/tests/ptxsurf-mutate), B,
# MUTATE_STEP (every N-th file: a sample; make check does not run this
# check, whose full run takes hours), MUTATE_KINDS (the kinds to run, default
# "source comparison immediate stall barrier": e.g. the functional ones
# only), MUTATE_ONLY=FILE (only the mutants it lists as "NAME KERNEL INDEX",
# e.g. an earlier run's survivors: a mutant caught on the seed's inputs
# stays caught when input sets are added), MUTATE_KEEP=1.
# Prints per kind: mutants, caught, equivalent, missed, and the share
# caught of the mutants that change a written value; then
# "mutate: N passed, M failed" (M: missed mutants). Exit 1 if any is missed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=${PROG:-./ptxsurf-as}
sim=${SIM:-${B:-build}/tests/ptxsurf-sim}
mut=${MUTATE:-${B:-build}/tests/ptxsurf-mutate}
step=${MUTATE_STEP:-1}
kinds=${MUTATE_KINDS:-source comparison immediate stall barrier}
only=${MUTATE_ONLY:-}
for v in prog sim mut; do
	eval "p=\$$v"
	case $p in /*) ;; *) p=$root/$p ;; esac
	[ -x "$p" ] || { echo "mutate: $p is not built" >&2; exit 2; }
	eval "$v=\$p"
done
[ $# -eq 0 ] && set -- "$root"/tests/cases/encode/*.ptx

work=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX") || exit 2
if [ "${MUTATE_KEEP:-0}" = 1 ]; then echo "mutate: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi

launches="1,1,1:1,1,1 2,1,1:32,2,1"
seeds="1 2"
more_seeds="3 4 5 6 7 8"
input_sets=${SIM_INPUT_SETS:-8}
: >"$work/tally"

# sim_spec CUBIN KERNEL SPEC SEED [OPTION...]: one run; SPEC is
# GRID:BLOCK[:THREAD]
sim_spec() {
	g=${3%%:*} rest=${3#*:} b=${3#*:} th=
	case $rest in *:*) b=${rest%%:*} th=${rest#*:} ;; esac
	_c=$1 _k=$2 _s=$4 _in=
	shift 4
	# a one-thread run has sim-diff.sh's input sets
	if [ -n "$th" ] || [ "$g:$b" = 1,1,1:1,1,1 ]; then _in="--inputs $input_sets"; fi
	"$sim" --kernel "$_k" --grid "$g" --block "$b" ${th:+--thread "$th"} $_in --seed "$_s" "$@" "$_c" 2>&1 |
		sed 's/^ptxsurf-sim: [^:]*: /ptxsurf-sim: /'   # the message names the cubin
}

# specs_for CUBIN KERNEL: the launches sim-diff.sh compares -- a racy one
# as its threads 32 and 127 alone
specs_for() {
	for l in $launches; do
		if sim_spec "$1" "$2" "$l" 1 | grep -q 'data race'; then
			echo "$l:32 $l:127"
		else
			echo "$l"
		fi
	done
}

# run CUBIN KERNEL SEEDS OUTPREFIX: one output file per launch and seed
run() {
	for l in $specs; do
		for s in $3; do
			sim_spec "$1" "$2" "$l" "$s" >"$4.$l.$s"
		done
	done
}

# differs PREFIX_A PREFIX_B SEEDS: some run of the two wrote or ended otherwise
differs() {
	for l in $specs; do
		for s in $3; do
			cmp -s "$1.$l.$s" "$2.$l.$s" || return 0
		done
	done
	return 1
}

i=0
for f in "$@"; do
	i=$((i + 1))
	[ $(( (i - 1) % step )) -eq 0 ] || continue
	name=$(basename "$f" .ptx)
	d=$work/$name
	mkdir -p "$d"
	"$prog" --color=never -S -o "$d/ours.cubin" "$f" >"$d/ours.lst" 2>/dev/null || continue
	for k in $(sed -n 's/.*Function : //p' "$d/ours.lst"); do
		if [ -n "$only" ] && ! grep -q "^$name $k " "$only"; then continue; fi
		specs=$(specs_for "$d/ours.cubin" "$k")
		run "$d/ours.cubin" "$k" "$seeds $more_seeds" "$d/ref.$k"
		# the addresses the runs execute (some lane's guard on)
		for l in $specs; do sim_spec "$d/ours.cubin" "$k" "$l" 1 --trace; done |
			sed -n 's/^[^ ]*+\([0-9a-f]*\) .* lanes=[1-9][0-9]*$/0x\1/p' | sort -u >"$d/$k.reached"
		"$mut" --list "$d/ours.cubin" "$k" >"$d/$k.mutants" || exit 2
		while read -r idx kind addr what; do
			case " $kinds " in *" $kind "*) ;; *) continue ;; esac
			if [ -n "$only" ] && ! grep -qx "$name $k $idx" "$only"; then continue; fi
			m=$d/m.cubin
			"$mut" "$d/ours.cubin" "$k" "$idx" "$m" || exit 2
			run "$m" "$k" "$seeds" "$d/mut"
			if differs "$d/ref.$k" "$d/mut" "$seeds"; then
				verdict=caught
				if [ "$kind" = stall ] || [ "$kind" = barrier ]; then
					"$prog" --disassemble "$m" >"$d/m.sass" 2>/dev/null &&
						"$prog" --color=never --verify-sched --format=raw -o /dev/null "$d/m.sass" >/dev/null 2>&1 &&
						verdict=caught-stricter
				fi
			elif ! grep -qx "$addr" "$d/$k.reached"; then
				verdict=unreached   # no run executes it: nothing can tell
			elif [ "$kind" = stall ] || [ "$kind" = barrier ]; then
				verdict=equivalent
				"$prog" --disassemble "$m" >"$d/m.sass" 2>/dev/null
				"$prog" --color=never --verify-sched --format=raw -o /dev/null "$d/m.sass" >"$d/v.err" 2>&1
				reader=$(grep -m1 'error:.*sched-hazard' "$d/v.err" | sed -n 's/.*instruction at \(0x[0-9a-f]*\).*/\1/p')
				if [ -n "$reader" ] && ! grep -qx "$reader" "$d/$k.reached"; then
					verdict=unreached   # the hazard's reader never executes
				elif grep -q 'sched-hazard' "$d/v.err"; then
					verdict=missed
					for l in $specs; do
						sim_spec "$m" "$k" "$l" 1 --no-pipe-order | grep -q '^ptxsurf-sim: ' && verdict=pipe-order
					done
					[ "$verdict" = missed ] &&
					echo "MISSED: $name $k $addr $what: --verify-sched rejects it, the simulator ran it:" \
					     "$(grep -m1 'error:.*sched-hazard' "$d/v.err" | sed 's/.*error: //')"
				elif grep -q 'error:' "$d/v.err"; then
					# the SASS front end cannot read the listing back (a
					# relocated MOV32I): nothing judges this survivor
					verdict=unjudged
				fi
			else
				run "$m" "$k" "$more_seeds" "$d/mut"
				verdict=equivalent
				if differs "$d/ref.$k" "$d/mut" "$more_seeds"; then
					verdict=missed
					echo "MISSED: $name $k $addr $what: seeds 1 and 2 do not show it, later seeds do"
				fi
			fi
			echo "$kind $verdict $name $k $idx $addr" >>"$work/tally"
		done <"$d/$k.mutants"
	done
done

fail=0 pass=0
for kind in $kinds; do
	awk -v k="$kind" '
		$1 == k { n++; v[$2]++ }
		END {
			c = v["caught"] + v["caught-stricter"]; m = v["missed"] + 0
			printf "mutate: %-10s %5d mutants, %5d caught, %5d equivalent, %3d missed", k, n, c, v["equivalent"], m
			if (v["unreached"]) printf ", %d unreached", v["unreached"]
			if (v["unjudged"]) printf ", %d unjudged", v["unjudged"]
			if (v["pipe-order"]) printf ", %d hazards only without pipe order", v["pipe-order"]
			if (c + m > 0) printf "; %.1f%% of the value-changing ones caught", 100 * c / (c + m)
			if (v["caught-stricter"]) printf " (%d that --verify-sched accepts)", v["caught-stricter"]
			printf "\n"
		}' "$work/tally"
done
pass=$(grep -c ' caught' "$work/tally")
fail=$(grep -c ' missed' "$work/tally")
echo "mutate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
