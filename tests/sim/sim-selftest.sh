#!/bin/sh
# Checks of the simulator itself (docs/simulator.md), so its verdicts can
# be trusted: values PTX defines come out of our cubins (independent of
# ptxas), and each failure the differential tests rely on is raised -- an
# unknown word, a value read before its producer's stall elapsed, two
# threads writing one byte, a branch into nowhere.
# Usage: tests/sim/sim-selftest.sh   (PROG, SIM, MUTATE as in sim-diff.sh)
# Prints "sim-selftest: N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=${PROG:-./ptxsurf-as}
sim=${SIM:-${B:-build}/tests/ptxsurf-sim}
mut=${MUTATE:-${B:-build}/tests/ptxsurf-mutate}
for v in prog sim mut; do
	eval "p=\$$v"
	case $p in /*) ;; *) p=$root/$p ;; esac
	[ -x "$p" ] || { echo "sim-selftest: $p is not built" >&2; exit 2; }
	eval "$v=\$p"
done
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-selftest.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: sim-selftest: $*"; fail=$((fail + 1)); }

# 1. A counted loop, a diamond and a float: sum 0..9 = 45, tid-dependent
# select, 1.5 * 4 = 6.0f, each thread its own word (2 blocks of 32 threads).
cat >"$work/values.ptx" <<'PTX'
.version 7.8
.target sm_50
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	mov.u32 %r5, 0;
	mov.u32 %r6, 0;
L:
	add.s32 %r5, %r5, %r6;
	add.s32 %r6, %r6, 1;
	setp.lt.u32 %p1, %r6, 10;
	@%p1 bra L;
	setp.lt.u32 %p2, %r1, 16;
	@%p2 bra LOW;
	add.s32 %r5, %r5, 1000;
LOW:
	mov.f32 %f1, 0f3FC00000;
	mul.f32 %f2, %f1, 0f40800000;
	mul.wide.u32 %rd2, %r4, 8;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	st.global.f32 [%rd3+4], %f2;
	ret;
}
PTX
if "$prog" -o "$work/values.cubin" "$work/values.ptx" 2>"$work/err"; then
	"$sim" --dump --grid 2,1,1 --block 32,1,1 "$work/values.cubin" >"$work/values.out" 2>&1
	# thread 0: 45 = 0x2d, 6.0f = 0x40c00000; thread 16: 1045 = 0x415; thread 63 at 0x1f8
	want0='2d 00 00 00 00 00 c0 40'
	got0=$(sed -n 's/^  param0.buffer+0000: //p' "$work/values.out" | cut -c1-23)
	got16=$(sed -n 's/^  param0.buffer+0080: //p' "$work/values.out" | cut -c1-23)
	got63=$(sed -n 's/^  param0.buffer+01e0: //p' "$work/values.out" | cut -c73-95)
	[ "$got0" = "$want0" ] && ok || bad "thread 0 wrote '$got0', not '$want0'"
	[ "$got16" = '15 04 00 00 00 00 c0 40' ] && ok || bad "thread 16 wrote '$got16'"
	[ "$got63" = '15 04 00 00 00 00 c0 40' ] && ok || bad "thread 63 wrote '$got63'"
else
	bad "ptxsurf-as rejects the values kernel: $(head -n 1 "$work/err")"
fi

# 2. An unknown word fails loudly: the kernel's first instruction, MOV R1,
# c[0x0][0x20] (0x4c98078000870001, little-endian in the file), becomes
# all ones.
if [ -f "$work/values.cubin" ]; then
	off=$(LC_ALL=C grep -obUaP '\x01\x00\x87\x00\x80\x07\x98\x4c' "$work/values.cubin" | head -n 1 | cut -d: -f1)
	cp "$work/values.cubin" "$work/unknown.cubin"
	[ -n "$off" ] && printf '\377\377\377\377\377\377\377\377' |
		dd of="$work/unknown.cubin" bs=1 seek="$off" conv=notrunc 2>/dev/null
	"$sim" "$work/unknown.cubin" >"$work/out" 2>&1
	[ -n "$off" ] && grep -q 'no form of the table matches this word' "$work/out" && ok ||
		bad "an unknown word did not stop the run: $(head -n 1 "$work/out")"
fi

# 3. Scheduling as semantics: a stall cut below the ALU latency makes the
# loop read a stale value -> poison reaches the branch or the store.
if [ -f "$work/values.cubin" ]; then
	caught=0 tried=0
	"$mut" --list "$work/values.cubin" k | awk '$2 == "stall" { print $1 }' >"$work/stalls"
	while read -r i; do
		tried=$((tried + 1))
		"$mut" "$work/values.cubin" k "$i" "$work/m.cubin" || continue
		"$sim" "$work/m.cubin" >"$work/out" 2>&1 || caught=$((caught + 1))
		"$sim" --no-timing "$work/m.cubin" >"$work/out.nt" 2>&1 ||
			bad "stall mutant $i fails without the timing model: $(head -n 1 "$work/out.nt")"
	done <"$work/stalls"
	[ "$tried" -gt 0 ] && [ "$caught" -gt 0 ] && ok ||
		bad "no stall mutant of $tried was caught by the timing model"
fi

# 4. Two threads writing one byte is a race; --allow-races runs it.
cat >"$work/race.ptx" <<'PTX'
.version 7.8
.target sm_50
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	st.global.u32 [%rd1], %r1;
	ret;
}
PTX
if "$prog" -o "$work/race.cubin" "$work/race.ptx" 2>"$work/err"; then
	"$sim" --block 2,1,1 "$work/race.cubin" >"$work/out" 2>&1
	grep -q 'data race: threads 0 and 1' "$work/out" && ok || bad "no race reported: $(head -n 1 "$work/out")"
	"$sim" --allow-races --block 2,1,1 "$work/race.cubin" >"$work/out" 2>&1 && ok ||
		bad "--allow-races still fails: $(head -n 1 "$work/out")"
else
	bad "ptxsurf-as rejects the race kernel: $(head -n 1 "$work/err")"
fi

# 5. Bad input gets a message, not a crash.
printf 'not an ELF' >"$work/junk.cubin"
"$sim" "$work/junk.cubin" >"$work/out" 2>&1
[ $? -eq 2 ] && grep -q '^ptxsurf-sim: ' "$work/out" && ok || bad "junk input: $(head -n 1 "$work/out")"
"$sim" --kernel nosuch "$work/race.cubin" >"$work/out" 2>&1
grep -q "no kernel 'nosuch'" "$work/out" && ok || bad "unknown kernel: $(head -n 1 "$work/out")"

echo "sim-selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
