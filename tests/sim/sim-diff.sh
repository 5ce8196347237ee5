#!/bin/sh
# Differential tests on the sm_50 simulator (docs/simulator.md): every
# kernel ptxsurf-as assembles from the golden kernels (tests/cases/encode),
# the simulator's own kernels (tests/sim/kernels: shared-memory reductions
# with barriers, local arrays, generic pointers, atomics, votes), the
# corpus surface and texture files (tests/corpus/*surface*, *texsurf*) and the random kernels
# of tests/oracle/gen_kernels.c runs on tests/sim's simulator with seeded
# random inputs over a few launch shapes, and every byte it writes to
# global buffers and surfaces must equal what the code of ptxas 11.8
# (-arch=sm_50, -O0 and -O3) writes for the same PTX and inputs. Without
# ptxas, our runs are compared with the outputs recorded in
# tests/sim/expected/FAMILY.txt from runs where ptxas's code agreed
# (SIM_DIFF_RECORD=1 rewrites them; ptxas needed).
#
# A launch where two threads write one byte is racy (its result would be
# the simulator's choice of order): it is counted, and its threads 32 and
# 127 run alone instead (their results are defined). A run
# of ptxas's code that stops on a form the simulator does not model fails
# the test unless tests/sim/known-gaps lists that file and build, so no
# gap passes silently.
#
# Every input set runs under both orders of the simulator's hardware model
# of divergence (SIM_DIVERGENCE=hw-taken and hw-fallthrough: the CRS stack,
# where only SSY/SYNC, PBK/BRK and CAL/RET join a split warp; which side
# of a divergent BRA runs first is not documented, so correct code writes
# the same bytes either way) and must write the recorded bytes under each.
#
# A golden with the line `// SIM-DIFF: -c` is assembled with -c on both
# sides (a relocatable object; the simulator applies its relocations of
# the module's own functions, sim_link.c); one with `// SIM-DIFF:
# --rules=ptxas` is assembled by us under ptxas's rules (forms ptxas takes
# and strict mode refuses).
#
# Usage: tests/sim/sim-diff.sh [FAMILY...]   (goldens kernels corpus sweep;
# files: SIM_DIFF_FILES, a measurement of real PTX, never run by make check)
# Environment: PROG, SIM (default $B/tests/ptxsurf-sim), B, CC,
# SIM_SWEEP_SEEDS (random kernels, default 30), SIM_SWEEP_DIVERGE_SEEDS
# (random kernels with divergent loops, gen_kernels --diverge, default 15),
# SIM_SWEEP_WHOLE_SEEDS (random kernels with functions, calls, module data,
# every state space and textures, gen_kernels --whole, default 10),
# SIM_SWEEP_VIDEO_SEEDS (random kernels with video instructions and fns,
# gen_kernels --video, default 6),
# SIM_INPUT_SETS (input sets of a one-thread run, default 8), SIM_DIFF_KEEP=1,
# SIM_DIFF_RECORD=1, SIM_DIFF_PTXAS=none (ignore ptxas: compare with the
# recorded outputs), STEP (every STEP-th file, for check-sanitize),
# SIM_DIFF_ONLY (a shell pattern: only the files whose name matches),
# SIM_MAX_STEPS (the files family's step limit per launch, default 2^18),
# SIM_DIFF_MODELS (divergence models, default "hw-taken hw-fallthrough";
# "ideal" joins paths wherever they meet, hiding missing reconvergence).
# Prints "sim: N passed, M failed"; exit 0 all passed, 1 failures, 2 setup.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=${PROG:-./ptxsurf-as}
sim=${SIM:-${B:-build}/tests/ptxsurf-sim}
step=${STEP:-1}
case $prog in /*) ;; *) prog=$root/$prog ;; esac
case $sim in /*) ;; *) sim=$root/$sim ;; esac
for t in "$prog" "$sim"; do
	[ -x "$t" ] || { echo "sim-diff: $t is not built" >&2; exit 2; }
done

oracle=${PTXSURF_ORACLE_DIR:-${HOME:-/tmp}/.cache/ptxsurf-oracles}/bin
ptxas=
if [ "${SIM_DIFF_PTXAS:-auto}" = none ]; then
	:   # the recorded outputs only, as on a machine without ptxas
elif [ -x "$oracle/ptxas" ]; then
	ptxas=$oracle/ptxas
elif d=$(sh "$root/tests/oracle/fetch-nvidia-tools.sh" 2>/dev/null) && [ -x "$d/ptxas" ]; then
	ptxas=$d/ptxas
fi
record=${SIM_DIFF_RECORD:-0}
against="ours vs ptxas -O0 and -O3"
if [ -z "$ptxas" ]; then
	echo "NOTE: sim-diff: ptxas 11.8 not found: our cubins are compared with the recorded outputs only"
	against="ours vs recorded outputs"
	[ "$record" = 1 ] && { echo "sim-diff: SIM_DIFF_RECORD=1 needs ptxas" >&2; exit 2; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sim-diff.XXXXXX") || exit 2
if [ "${SIM_DIFF_KEEP:-0}" = 1 ]; then echo "sim-diff: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi

# launch shapes (GRID:BLOCK): one thread (every kernel is defined there),
# and two blocks of 32x2 threads (warps, divergence, several blocks); the
# random kernels own per-thread stripes for 32 threads of a 1D grid
launches="1,1,1:1,1,1 2,1,1:32,2,1"
sweep_launches="1,1,1:1,1,1 2,1,1:16,1,1"
# a racy launch runs again with one thread at a time: the first of the
# second warp (tid 0,1) and the last of the grid
racy_threads="32 127"
seeds="1 2"
# a one-thread run (the one-thread launch, a racy launch's lone threads)
# is cheap: it runs on SIM_INPUT_SETS input sets (ptxsurf-sim --inputs:
# the seed's, then edge sets whose parameters and buffer words are NaN,
# infinities, subnormals, integer bounds and carry words -- a kernel
# parameter has one value per launch, so only more launches vary it), and
# under one divergence model only (a lone thread cannot diverge)
input_sets=${SIM_INPUT_SETS:-8}
models=${SIM_DIFF_MODELS:-hw-taken hw-fallthrough}
model=
gaps=$here/known-gaps

pass=0 fail=0 racy=0 gap=0 faults=0 uncompared=0 one_build=0
# per family: kernels, input sets compared
fam_kernels=0 fam_sets=0

# run_sim CUBIN KERNEL GRID BLOCK SEED OUT: 0 ran, 1 failed (message in OUT)
run_sim() {
	_c=$1 _k=$2 _g=$3 _b=$4 _s=$5 _o=$6
	shift 6
	"$sim" --kernel "$_k" --grid "$_g" --block "$_b" --seed "$_s" "$@" "$_c" >"$_o" 2>&1
}

# fault OUT: the simulator's message without the instruction that raised it
fault() { grep '^ptxsurf-sim: ' "$1" | head -n 1 | sed 's/^ptxsurf-sim: [^:]*: [^ ]* ([^)]*): //'; }

# fault_key OUT: what two faults must share. In the files family (real
# code, whose loads ptxas -O3 reorders and unrolls) the first access out of
# bounds may be another one of the same loop: its address is masked.
fault_key() {
	if [ "$fam" = files ]; then fault "$1" | sed 's/0x[0-9a-f]*/ADDR/g'; else fault "$1"; fi
}

# same_output A B: two runs wrote the same bytes; in the files family an
# edge input set's stop may differ in its addresses, as fault_key allows
# (HeCBench kalman, clang -O3 -g: both frames overrun, at other offsets)
same_output() {
	if [ "$fam" = files ]; then
		[ "$(stop_masked "$1")" = "$(stop_masked "$2")" ]
	else
		cmp -s "$1" "$2"
	fi
}
stop_masked() { sed '/^input set [0-9]*: stopped: /s/0x[0-9a-f]*/ADDR/g' "$1"; }

# outcome OUT: "ok", "race" or "fail"
outcome() {
	if grep -q '^ptxsurf-sim: .*data race' "$1"; then echo race
	elif grep -q '^ptxsurf-sim: ' "$1"; then echo fail
	else echo ok; fi
}

digest() { cksum <"$1" | cut -d ' ' -f1; }

# is_gap FAMILY/NAME BUILD: tests/sim/known-gaps lists that build (its
# first field may be a shell pattern)
is_gap() {
	# real code (the files family) is not listed: every gap is counted
	[ "$fam" = files ] && return 0
	while read -r pat build _; do
		case $pat in '#'*|'') continue ;; esac
		# shellcheck disable=SC2254
		case $1 in $pat) [ "$build" = "$2" ] && return 0 ;; esac
	done <"$gaps"
	return 1
}

# gap_fault OUT: the run stopped on a form or mode the simulator lacks
gap_fault() { fault "$1" | grep -q -e 'no form of the table matches' -e 'not modelled' -e 'does not model'; }

# compare_set: compare_once, and in the files family once more with 16
# times the step limit when a set failed with a run stopped by it: ptxas
# -O0's code of a loop takes several times our instructions per trip, so
# within one budget our run may reach a fault that its run has not yet
# (HeCBench s8n, clang -O0: our out-of-bounds access against its "more
# than 65536 instructions"). Only the second try's verdict is shown.
compare_set() {
	if [ "$fam" != files ]; then compare_once; return; fi
	saved="$pass $fail $faults $one_build $fam_sets $gap $uncompared"
	steps_scale=1
	compare_once >"$d/first-try"
	rc=$?
	if [ "$rc" = 0 ] && [ "$fail" -gt "$(echo "$saved" | cut -d ' ' -f2)" ] &&
	   grep -q 'instructions issued' "$d"/*.out 2>/dev/null; then
		read -r pass fail faults one_build fam_sets gap uncompared <<EOF_SAVED
$saved
EOF_SAVED
		steps_scale=16
		compare_once
		rc=$?
		steps_scale=1
		return $rc
	fi
	cat "$d/first-try"
	return $rc
}

# compare_once: kernel $k of $d, launch $g/$b, seed $s, only thread $th when
# set; returns 3 when our run is racy (nothing compared)
compare_once() {
	th_opt=${th:+--thread $th}
	if [ -n "$th" ] || [ "$g:$b" = 1,1,1:1,1,1 ]; then th_opt="$th_opt --inputs $input_sets"; fi
	id="$name $k $g $b${th:+@$th} $s"
	[ "$fam" = files ] && th_opt="$th_opt --max-steps $((${SIM_MAX_STEPS:-262144} * ${steps_scale:-1}))"
	run_sim "$d/ours.cubin" "$k" "$g" "$b" "$s" "$d/ours.out" $th_opt
	ours=$(outcome "$d/ours.out")
	if [ "$ours" = race ]; then return 3; fi
	# our code uses a form the simulator has no model of yet: a listed gap
	if [ "$ours" = fail ] && gap_fault "$d/ours.out" && is_gap "$fam/$name" ours; then
		gap=$((gap + 1))
		echo "GAP: $fam/$id [$model]: our code not simulated (tests/sim/known-gaps): $(fault "$d/ours.out")"
		return 0
	fi
	if [ "$ours" = fail ] && [ -n "$ptxas" ] && [ -z "$builds" ]; then
		echo "FAIL: $fam/$id [$model]: our cubin: $(fault "$d/ours.out")"
		fail=$((fail + 1)); return 0
	fi
	want=$(awk -v id="$id" '{ k = $1 " " $2 " " $3 " " $4 " " $5 } k == id { print $6 }' \
	       "$here/expected/$fam.txt" 2>/dev/null)
	ok=1 agreed=0
	# each build's verdict, shown after the loop: in the files family (real
	# code) a set passes when our bytes equal one build's, since ptxas -O3
	# itself may write other bytes than -O0 (it fuses a mul.f64 and add.f64
	# without rounding modifiers into a DFMA, as PTX allows, and drops the
	# unused half of a 64-bit load, so its first bad access is another)
	for o in $builds; do
		run_sim "$d/$o.cubin" "$k" "$g" "$b" "$s" "$d/$o.out" $th_opt
		theirs=$(outcome "$d/$o.out")
		if [ "$theirs" = fail ] && gap_fault "$d/$o.out" && is_gap "$fam/$name" "$o"; then
			gap=$((gap + 1))
			echo "GAP: $fam/$id [$model]: ptxas -$o code not simulated (tests/sim/known-gaps): $(fault "$d/$o.out")"
			continue
		fi
		if [ "$ours" = fail ]; then
			# a fault is an outcome too: both must fault the same way
			if [ "$theirs" = fail ] && [ "$(fault_key "$d/ours.out")" = "$(fault_key "$d/$o.out")" ]; then
				agreed=1 faults=$((faults + 1))
			else
				echo "FAIL: $fam/$id [$model]: our cubin: $(fault "$d/ours.out"); ptxas -$o: $(fault "$d/$o.out")"
				ok=0
			fi
			continue
		fi
		if [ "$theirs" = fail ]; then
			echo "FAIL: $fam/$id [$model]: ptxas -$o code: $(grep '^ptxsurf-sim: ' "$d/$o.out" | head -n 1 | sed 's/^ptxsurf-sim: [^:]*: //')"
			ok=0
			continue
		fi
		if ! same_output "$d/ours.out" "$d/$o.out"; then
			echo "FAIL: $fam/$id [$model]: ours and ptxas -$o write different bytes:"
			run_sim "$d/ours.cubin" "$k" "$g" "$b" "$s" "$d/ours.dump" --dump $th_opt
			run_sim "$d/$o.cubin" "$k" "$g" "$b" "$s" "$d/$o.dump" --dump $th_opt
			diff "$d/ours.dump" "$d/$o.dump" | grep '^[<>]   ' | head -n 4
			ok=0
		else
			agreed=1
		fi
	done >"$d/verdicts"
	if [ "$fam" = files ] && [ "$ok" = 0 ] && [ "$agreed" = 1 ]; then
		ok=1 one_build=$((one_build + 1))
	else
		cat "$d/verdicts"
	fi
	if [ "$ours" = fail ]; then got=$(fault "$d/ours.out" | cksum | cut -d ' ' -f1)
	else got=$(digest "$d/ours.out"); fi
	if [ "$ok" = 1 ] && [ "$agreed" = 0 ] && { [ "$want" = uncompared ] || { [ -z "$want" ] &&
	   { [ -n "$ptxas" ] || { is_gap "$fam/$name" O0 && is_gap "$fam/$name" O3; }; }; }; }; then
		# ptxas rejects the file or every build is a known gap (recorded
		# as such, so that a run without ptxas knows it too)
		echo "UNCOMPARED: $fam/$id [$model]: no ptxas build runs and no output is recorded"
		uncompared=$((uncompared + 1))
		[ "$record" = 1 ] && echo "$id uncompared" >>"$work/$fam.record"
		return 0
	fi
	if [ "$record" = 1 ] && [ "$ok" = 1 ] && [ "$agreed" = 1 ]; then
		echo "$id $got" >>"$work/$fam.record"
	elif [ -z "$ptxas" ] && [ -z "$want" ]; then
		echo "FAIL: $fam/$id [$model]: no recorded output (record with ptxas: SIM_DIFF_RECORD=1)"
		ok=0
	elif [ -n "$want" ] && [ "$want" != "$got" ]; then
		echo "FAIL: $fam/$id [$model]: our output differs from the recorded one" \
		     "(${ptxas:+ptxas agrees with ours: }rerun with SIM_DIFF_RECORD=1 if the inputs changed)"
		ok=0
	fi
	fam_sets=$((fam_sets + 1))
	if [ "$ok" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

# compare_file FAMILY PTX NAME
compare_file() {
	fam=$1 f=$2 name=$3
	d=$work/$fam/$name
	mkdir -p "$d"
	# a golden marked `// SIM-DIFF: -c` is a relocatable object (issue 15):
	# ours and ptxas's are assembled with -c, and the simulator links the
	# module's code sections as the driver would (sim_link.c)
	reloc= rules=
	grep -q '^// SIM-DIFF: -c$' "$f" && reloc=-c
	grep -q '^// SIM-DIFF: --rules=ptxas$' "$f" && rules=--rules=ptxas
	# a real file that ptxas 11.8 links only as a relocatable object (it
	# calls or uses an .extern symbol) is one on both sides, as
	# real-ptx-measure.sh assembles it
	if [ "$fam" = files ] && [ -n "$ptxas" ] &&
	   ! "$ptxas" -arch=sm_50 "$f" -o "$d/probe.cubin" 2>/dev/null &&
	   "$ptxas" -arch=sm_50 -c "$f" -o "$d/probe.cubin" 2>/dev/null; then
		reloc=-c
	fi
	"$prog" --color=never $reloc $rules -S -o "$d/ours.cubin" "$f" >"$d/ours.lst" 2>"$d/ours.err" || return 0
	kernels=$(sed -n 's/.*Function : //p' "$d/ours.lst")
	if [ -n "$reloc" ]; then
		# the .entry kernels only: an address-taken .func has a section of its own
		entries=
		for k in $kernels; do
			grep -q "\.entry[[:space:]]*$k[[:space:]]*(" "$f" && entries="$entries $k"
		done
		kernels=$entries
	fi
	builds=
	if [ -n "$ptxas" ]; then
		for o in O0 O3; do
			if "$ptxas" -arch=sm_50 $reloc -"$o" "$f" -o "$d/$o.cubin" 2>"$d/$o.err"; then
				builds="$builds $o"
			else
				echo "note: $fam/$name: ptxas -$o rejects the file: $(head -n 1 "$d/$o.err")"
			fi
		done
	fi
	for k in $kernels; do
		fam_kernels=$((fam_kernels + 1))
		for l in $launches; do
			g=${l%%:*} b=${l#*:}
			for s in $seeds; do
				lone_done=0
				for model in $models; do
					SIM_DIVERGENCE=$model
					export SIM_DIVERGENCE
					th=
					if [ "$l" = 1,1,1:1,1,1 ] && [ "$lone_done" = 1 ]; then continue; fi
					lone_done=1
					compare_set && continue
					# every thread writes one place: run threads one at a time
					racy=$((racy + 1))
					[ "$model" = "${models%% *}" ] || continue
					for th in $racy_threads; do
						compare_set
					done
				done
			done
		done
	done
}

run_family() {
	fam=$1
	shift
	fam_kernels=0 fam_sets=0
	fam_pass=$pass fam_fail=$fail fam_racy=$racy fam_faults=$faults
	i=0
	for f in "$@"; do
		i=$((i + 1))
		[ $(( (i - 1) % step )) -eq 0 ] || continue
		# shellcheck disable=SC2254
		case $(basename "$f" .ptx) in ${SIM_DIFF_ONLY:-*}) ;; *) continue ;; esac
		compare_file "$fam" "$f" "$(basename "$f" .ptx)"
	done
	echo "sim-diff: $fam: $fam_kernels kernels, $fam_sets input sets compared under $models ($against;" \
	     "$((faults - fam_faults)) of them fault the same way on both sides)," \
	     "$((pass - fam_pass)) passed, $((fail - fam_fail)) failed, $((racy - fam_racy)) racy launches run one thread at a time"
	[ "$fam" = files ] && echo "sim-diff: files: $one_build input sets equal to one ptxas build only (the other wrote other bytes)"
	if [ "$record" = 1 ]; then
		mkdir -p "$here/expected"
		sort -u "$work/$fam.record" 2>/dev/null >"$here/expected/$fam.txt"
	fi
}

# gen_files PREFIX COUNT FLAGS...: sweep-PREFIX1.ptx ... of gen_kernels
# FLAGS 1..COUNT, their paths added to sweep_files
gen_files() {
	_p=$1 _c=$2 _n=0
	shift 2
	while [ $_n -lt "$_c" ]; do
		_n=$((_n + 1))
		"$work/gen" "$@" $_n >"$work/sweep-$_p$_n.ptx" || exit 2
		sweep_files="$sweep_files $work/sweep-$_p$_n.ptx"
	done
}

families=${*:-goldens kernels corpus sweep}
for fam in $families; do
	case $fam in
	goldens) run_family goldens "$root"/tests/cases/encode/*.ptx ;;
	kernels) run_family kernels "$here"/kernels/*.ptx ;;
	corpus) run_family corpus "$root"/tests/corpus/*surface*.ptx "$root"/tests/corpus/*texsurf*.ptx ;;
	files)
		# measurement outside make check: the .ptx files and directories
		# of SIM_DIFF_FILES (real compiler PTX retargeted to sm_50, e.g.
		# what real-ptx-measure.sh keeps with MEASURE_KEEP=1), compared
		# with ptxas's code only (nothing is recorded for them)
		[ -n "$ptxas" ] || { echo "sim-diff: the files family needs ptxas 11.8" >&2; exit 2; }
		[ "$record" = 1 ] && { echo "sim-diff: the files family is never recorded" >&2; exit 2; }
		# shellcheck disable=SC2086
		set -- $(find ${SIM_DIFF_FILES:?set SIM_DIFF_FILES} -name '*.ptx' | LC_ALL=C sort)
		run_family files "$@" ;;
	sweep)
		${CC:-cc} -std=c11 -O1 -o "$work/gen" "$root/tests/oracle/gen_kernels.c" "$root/tests/oracle/gen_loops.c" \
			"$root/tests/oracle/gen_families.c" "$root/tests/oracle/gen_calls.c" "$root/tests/oracle/gen_data.c" \
			"$root/tests/oracle/gen_tex.c" "$root/tests/oracle/gen_video.c" || exit 2
		sweep_files=
		gen_files "" "${SIM_SWEEP_SEEDS:-30}" --defined
		# divergent loops (trip counts and breaks from the thread index, a
		# vote of the warp after each): wrong without reconvergence
		gen_files d "${SIM_SWEEP_DIVERGE_SEEDS:-15}" --defined --diverge
		# device functions and calls, module data in every state space,
		# textures
		gen_files w "${SIM_SWEEP_WHOLE_SEEDS:-10}" --defined --whole
		# video instructions (scalar and SIMD) and fns
		gen_files v "${SIM_SWEEP_VIDEO_SEEDS:-6}" --defined --video
		# shellcheck disable=SC2086
		set -- $sweep_files
		launches=$sweep_launches
		run_family sweep "$@" ;;
	*) echo "sim-diff: unknown family $fam" >&2; exit 2 ;;
	esac
done
[ $((gap + uncompared)) -gt 0 ] && echo "sim-diff: $gap runs of ptxas code not simulated" \
	"(known gaps, listed above); $uncompared input sets had nothing to compare with"
echo "sim: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
