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
. "$here/ref-check-setup.sh"
ref_check_setup div-rn-check "$here/../cases/encode/div-rn-f32.ptx" "$here/div_rn_ref_main.c" -lm || exit 2
# the f32 cubins ref_check_setup made, then the f64 golden's, by the same builds
for b in $builds; do mv "$work/$b.cubin" "$work/div-rn-f32.$b.cubin"; done
ptx64=$root/tests/cases/encode/div-rn-f64.ptx
"$prog" -o "$work/div-rn-f64.ours.cubin" "$ptx64" || exit 2
for b in $builds; do
	[ "$b" = ours ] || "$_oracle/ptxas" -arch=sm_50 -$b -o "$work/div-rn-f64.$b.cubin" "$ptx64" || exit 2
done
pass=0 fail=0
# per file, FILE:MODE:COUNT: kernel MODE_rn (ddiv: div_rn), COUNT results checked by mode MODE
for spec in "div-rn-f32:div:1024 div-rn-f32:rcp:1024" "div-rn-f64:ddiv:512"; do
	file=${spec%%:*}
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
echo "div-rn-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
