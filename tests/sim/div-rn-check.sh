#!/bin/sh
# div.rn.f32 and rcp.rn.f32 against IEEE arithmetic (divrn): runs the golden
# kernel tests/cases/encode/div-rn-f32.ptx -- 1024 operand pairs per launch
# with every exponent on both sides, subnormals, zeros, infinities and
# NaNs -- on the simulator for several seeds, as ptxsurf-as assembles it
# and (when ptxas 11.8 is found) as ptxas -O0 and -O3 do, and checks every
# quotient and reciprocal against the host's (tests/sim/div_rn_ref_main.c).
# This proves the fast path, the slow path and the simulator's FCHK model
# together compute what PTX says; sim-diff.sh proves ours equals ptxas's.
# Usage: tests/sim/div-rn-check.sh  Environment: PROG, B, CC, SIM.
# Prints "div-rn-check: N passed, M failed"; exit 0 all passed, 1 failures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ref-check-setup.sh"
ref_check_setup div-rn-check "$here/../cases/encode/div-rn-f32.ptx" "$here/div_rn_ref_main.c" -lm || exit 2
pass=0 fail=0
for b in $builds; do
	for kernel in div rcp; do
		for seed in 1 2 3 4 5 6; do
			# 2 blocks of 32x2 threads, 8 operands each: all 1024 words
			if "$sim" --kernel ${kernel}_rn --grid 2,1,1 --block 32,2,1 --seed "$seed" --dump \
			   "$work/$b.cubin" >"$work/dump" 2>&1 && "$work/ref" $kernel 1024 <"$work/dump" >"$work/out"; then
				pass=$((pass + 1))
			else
				fail=$((fail + 1))
				echo "FAIL: $b ${kernel}_rn seed $seed:"
				head -n 12 "$work/out" "$work/dump" 2>/dev/null | grep -v '^  param' | head -n 14
			fi
		done
	done
done
echo "div-rn-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
