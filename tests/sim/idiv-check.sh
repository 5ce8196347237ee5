#!/bin/sh
# div/rem .u16/.s16/.u64/.s64 against the host's / and % (idiv): runs kernel
# ref of the goldens tests/cases/encode/idiv16.ptx and idiv64.ptx -- 512
# operand pairs per launch, of every magnitude (64-bit: shifted right by
# 0..63, so operands under 2^32 and above, small negative ones; 16-bit:
# divisors shifted by 0..7) and special values (0, +-1, -2, the signed
# minimum and maximum, the unsigned maximum) -- on the simulator for several
# seeds, as ptxsurf-as assembles them and (when ptxas 11.8 is found) as
# ptxas -O0 and -O3 do, and checks all four results of every pair with
# tests/sim/idiv_ref_main.c. sim-diff.sh proves ours equals ptxas's; this
# proves both compute what PTX says.
# Usage: tests/sim/idiv-check.sh  Environment: PROG, B, CC, SIM.
# Prints "idiv-check: N passed, M failed"; exit 0 all passed, 1 failures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ref-check-setup.sh"
pass=0 fail=0
for bits in 16 64; do
	ref_check_setup idiv-check "$here/../cases/encode/idiv$bits.ptx" "$here/idiv_ref_main.c" || exit 2
	for b in $builds; do
		for seed in 1 2 3 4 5 6 7 8; do
			# 2 blocks of 32x2 threads, 4 pairs each: all 512 pairs
			if "$sim" --kernel ref --grid 2,1,1 --block 32,2,1 --seed "$seed" --dump \
			   "$work/$b.cubin" >"$work/dump" 2>&1 && "$work/ref" $bits 512 <"$work/dump" >"$work/out"; then
				pass=$((pass + 1))
				[ "${IDIV_CHECK_VERBOSE:-0}" = 1 ] && echo "$b seed $seed: $(cat "$work/out")"
			else
				fail=$((fail + 1))
				echo "FAIL: $b ref$bits seed $seed:"
				head -n 12 "$work/out" "$work/dump" 2>/dev/null | grep -v '^  param' | head -n 14
			fi
		done
	done
	rm -rf "$work"
done
echo "idiv-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
