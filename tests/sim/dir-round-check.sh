#!/bin/sh
# The directed-rounding div, rcp and sqrt (float-forms) against IEEE
# arithmetic: runs the .rm/.rp/.rz kernels without .ftz of the goldens
# tests/cases/encode/{div,rcp,sqrt}-dir-f32.ptx (1024 operands per launch,
# every exponent, subnormals, zeros, infinities, NaNs) and
# {sqrt,rcp}-dir-f64.ptx (512 f64 operands per launch) on the simulator
# for several seeds, as ptxsurf-as assembles them and (when ptxas 11.8 is
# found) as ptxas -O0 and -O3 do, and checks every result against the
# host's in the same rounding mode (tests/sim/dir_round_ref_main.c).
# sim-diff.sh proves ours equals ptxas's; this proves both compute what
# PTX says. (.ftz is left out: the host has no flush-to-zero division.)
# Usage: tests/sim/dir-round-check.sh  Environment: PROG, B, CC, SIM.
# Prints "dir-round-check: N passed, M failed"; exit 0 all passed, 1 failures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ref-check-setup.sh"
ref_check_setup dir-round-check "$here/../cases/encode/div-dir-f32.ptx" "$here/dir_round_ref_main.c" -lm \
	-frounding-math || exit 2
for b in $builds; do mv "$work/$b.cubin" "$work/div-dir-f32.$b.cubin"; done
for file in rcp-dir-f32 sqrt-dir-f32 sqrt-dir-f64 rcp-dir-f64; do
	ptx=$root/tests/cases/encode/$file.ptx
	"$prog" -o "$work/$file.ours.cubin" "$ptx" || exit 2
	for b in $builds; do
		[ "$b" = ours ] || "$_oracle/ptxas" -arch=sm_50 -$b -o "$work/$file.$b.cubin" "$ptx" || exit 2
	done
done
pass=0 fail=0
# FILE:OP:COUNT, the kernels OP_rm, OP_rp, OP_rz (drcp, dsqrt: rcp_, sqrt_)
for spec in div-dir-f32:div:1024 rcp-dir-f32:rcp:1024 sqrt-dir-f32:sqrt:1024 sqrt-dir-f64:dsqrt:512 \
	rcp-dir-f64:drcp:512; do
	file=${spec%%:*} op=$(echo "$spec" | cut -d: -f2) count=${spec##*:}
	for b in $builds; do
		for mode in rm rp rz; do
			kernel=${op}_$mode
			case $op in drcp | dsqrt) kernel=${op#d}_$mode ;; esac
			[ "$op$mode" = drcprz ] && continue   # rcp.rz.f64: rcp-rz-f64's golden
			for seed in 1 2 3; do
				# 2 blocks of 32x2 threads: every operand of the buffers
				if "$sim" --kernel "$kernel" --grid 2,1,1 --block 32,2,1 --seed "$seed" --dump \
				   "$work/$file.$b.cubin" >"$work/dump" 2>&1 && "$work/ref" "$op" "$mode" "$count" \
				   <"$work/dump" >"$work/out"; then
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
echo "dir-round-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
