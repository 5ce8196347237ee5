#!/bin/sh
# div.rn.f32, rcp.rn.f32 (divrn) and div.rn.f64 (f64div) against IEEE
# arithmetic: runs the golden kernels tests/cases/encode/div-rn-f32.ptx --
# 1024 operand pairs per launch with every exponent on both sides,
# subnormals, zeros, infinities and NaNs -- and div-rn-f64.ptx's div_rn
# (512 f64 pairs per launch, likewise) on the simulator for several seeds,
# as ptxsurf-as assembles them and (when ptxas 11.8 is found) as ptxas -O0
# and -O3 do, and checks every quotient and reciprocal against the host's
# (tests/sim/div_rn_ref_main.c).
# This proves the fast path, the slow path and the simulator's FCHK model
# together compute what PTX says; sim-diff.sh proves ours equals ptxas's.
# Usage: tests/sim/div-rn-check.sh  Environment: PROG, B, CC, SIM.
# Prints "div-rn-check: N passed, M failed"; exit 0 all passed, 1 failures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=${PROG:-./ptxsurf-as}
sim=${SIM:-${B:-build}/tests/ptxsurf-sim}
case $prog in /*) ;; *) prog=$root/$prog ;; esac
case $sim in /*) ;; *) sim=$root/$sim ;; esac
for t in "$prog" "$sim"; do
	[ -x "$t" ] || { echo "div-rn-check: $t is not built" >&2; exit 2; }
done
oracle=${PTXSURF_ORACLE_DIR:-${HOME:-/tmp}/.cache/ptxsurf-oracles}/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/div-rn-check.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
"${CC:-cc}" -std=c11 -O2 -o "$work/ref" "$here/div_rn_ref_main.c" -lm || exit 2
pass=0 fail=0
# per file, FILE:MODE:COUNT: kernel MODE_rn (ddiv: div_rn), COUNT results checked by mode MODE
for spec in "div-rn-f32:div:1024 div-rn-f32:rcp:1024" "div-rn-f64:ddiv:512"; do
	file=${spec%%:*}
	ptx=$root/tests/cases/encode/$file.ptx
	"$prog" -o "$work/$file.ours.cubin" "$ptx" || exit 2
	builds=ours
	if [ -x "$oracle/ptxas" ]; then
		for o in 0 3; do
			"$oracle/ptxas" -arch=sm_50 -O$o -o "$work/$file.O$o.cubin" "$ptx" && builds="$builds O$o"
		done
	fi
	for b in $builds; do
		for check in $spec; do
			mode=$(echo "$check" | cut -d: -f2) count=${check##*:}
			kernel=${mode}_rn; [ "$mode" = ddiv ] && kernel=div_rn
			for seed in 1 2 3 4 5 6; do
				# 2 blocks of 32x2 threads: every operand of the buffers
				if "$sim" --kernel $kernel --grid 2,1,1 --block 32,2,1 --seed "$seed" --dump \
				   "$work/$file.$b.cubin" >"$work/dump" 2>&1 && "$work/ref" $mode $count <"$work/dump" >"$work/out"; then
					pass=$((pass + 1))
				else
					fail=$((fail + 1))
					echo "FAIL: $file $b $kernel seed $seed:"
					head -n 12 "$work/out" "$work/dump" 2>/dev/null | grep -v '^  param' | head -n 14
				fi
			done
		done
	done
done
[ -x "$oracle/ptxas" ] || echo "NOTE: div-rn-check: ptxas 11.8 not found: only our code is checked"
echo "div-rn-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
