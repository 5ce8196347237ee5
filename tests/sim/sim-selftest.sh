#!/bin/sh
# Checks of the simulator itself (docs/simulator.md), so its verdicts can
# be trusted: values PTX defines come out of our cubins (independent of
# ptxas), and each failure the differential tests rely on is raised -- an
# unknown word, a value read before its producer's stall elapsed, two
# threads writing one byte (also in shared memory between two barriers),
# a branch into nowhere, a shared access past the block; and issue 14's
# shared/local/generic memory, atomics and votes compute what PTX says, and
# a divergent loop reconverges before a vote and a shuffle (section 11);
# R2P/P2R of the predicates move the bits of the bytes they name (13).
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

# 6. Exact values of the integer bit, f64, conversion and MUFU models,
# each checked against an independent computation (exact rational
# arithmetic): mul.hi.s32/u32 (XMAD .CSFU and IADD3.RS), popc, clz, bfind,
# prmt modes, f64 add/mul/fma in RM/RP/RZ, min, f64->f32->f16->f32, cvt.rzi
# and cvt.rmi, s32->f32 in RN/RP, and MUFU values that are exact (1/4,
# sqrt 16, 2^3, log2 8).
cat >"$work/exact.ptx" <<'PTX'
.version 7.8
.target sm_50
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<64>;
	.reg .b16 %h<4>;
	.reg .f32 %f<8>;
	.reg .f64 %fd<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, -123456789;
	mov.u32 %r2, 987654321;
	mov.u32 %r3, -7;
	mov.u32 %r4, 65535;
	mul.hi.s32 %r10, %r1, %r2;
	mul.hi.s32 %r11, %r3, %r4;
	mul.hi.s32 %r12, %r1, %r3;
	mul.hi.u32 %r13, %r1, %r2;
	popc.b32 %r14, %r1;
	clz.b32 %r15, %r2;
	bfind.s32 %r16, %r1;
	bfind.shiftamt.u32 %r17, %r2;
	prmt.b32 %r18, %r1, %r2, 0x8b41;
	prmt.b32.f4e %r19, %r1, %r2, 2;
	prmt.b32.b4e %r20, %r1, %r2, 1;
	prmt.b32.ecr %r21, %r1, %r2, 2;
	prmt.b32.rc16 %r22, %r1, %r2, 1;
	cvt.rn.f64.s32 %fd1, %r1;
	cvt.rn.f64.u32 %fd2, %r2;
	mul.rn.f64 %fd3, %fd1, 0d3FD5555555555555;
	add.rm.f64 %fd4, %fd3, 0d3FB999999999999A;
	add.rp.f64 %fd5, %fd3, 0d3FB999999999999A;
	mul.rz.f64 %fd6, %fd4, %fd2;
	fma.rn.f64 %fd7, %fd3, %fd2, %fd1;
	min.f64 %fd8, %fd4, %fd5;
	cvt.rn.f32.f64 %f1, %fd6;
	cvt.rm.f32.f64 %f2, %fd6;
	cvt.rn.f16.f32 %h1, %f1;
	cvt.f32.f16 %f3, %h1;
	cvt.rzi.s32.f64 %r23, %fd3;
	cvt.rmi.f64.f64 %fd9, %fd3;
	cvt.rn.f32.s32 %f4, %r1;
	cvt.rp.f32.s32 %f5, %r1;
	st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};
	st.global.v4.u32 [%rd1+16], {%r14, %r15, %r16, %r17};
	st.global.v4.u32 [%rd1+32], {%r18, %r19, %r20, %r21};
	st.global.v2.u32 [%rd1+48], {%r22, %r23};
	st.global.f64 [%rd1+56], %fd4;
	st.global.f64 [%rd1+64], %fd5;
	st.global.f64 [%rd1+72], %fd6;
	st.global.f64 [%rd1+80], %fd7;
	st.global.f64 [%rd1+88], %fd8;
	st.global.f64 [%rd1+96], %fd9;
	st.global.f64 [%rd1+104], %fd1;
	st.global.v4.f32 [%rd1+112], {%f1, %f2, %f3, %f4};
	st.global.f32 [%rd1+128], %f5;
	mov.f32 %f6, 0f40800000;
	rcp.approx.f32 %f7, %f6;
	st.global.f32 [%rd1+132], %f7;
	mov.f32 %f6, 0f41800000;
	sqrt.approx.f32 %f7, %f6;
	st.global.f32 [%rd1+136], %f7;
	mov.f32 %f6, 0f40400000;
	ex2.approx.f32 %f7, %f6;
	st.global.f32 [%rd1+140], %f7;
	mov.f32 %f6, 0f41000000;
	lg2.approx.ftz.f32 %f7, %f6;
	st.global.f32 [%rd1+144], %f7;
	ret;
}
PTX
if "$prog" -o "$work/exact.cubin" "$work/exact.ptx" 2>"$work/err"; then
	"$sim" --dump "$work/exact.cubin" >"$work/exact.out" 2>&1
	sed -n 's/^  param0.buffer+00[0-8]0: //p' "$work/exact.out" | tr '\n' ' ' | cut -c1-444 >"$work/exact.got"
	cat >"$work/exact.want" <<'HEX'
eb ce 4e fe ff ff ff ff 00 00 00 00 9c 37 2d 39 11 00 00 00 02 00 00 00 1a 00 00 00 02 00 00 00 \
32 b1 ff ff a4 f8 b1 68 32 eb 3a de eb 32 a4 a4 a4 f8 a4 f8 f9 10 8c fd 34 33 33 37 78 9f 83 c1 \
33 33 33 37 78 9f 83 c1 2c 42 6e 34 b6 0c 62 c3 1e 1d 16 36 b6 0c 62 c3 34 33 33 37 78 9f 83 c1 \
00 00 00 38 78 9f 83 c1 00 00 00 54 34 6f 9d c1 b2 65 10 db b2 65 10 db 00 00 80 ff a3 79 eb cc \
a2 79 eb cc 00 00 80 3e 00 00 80 40 00 00 00 41 00 00 40 40
HEX
	want=$(sed 's/ \\$//' "$work/exact.want" | tr '\n' ' ' | cut -c1-444)
	[ "$(cat "$work/exact.got")" = "$want" ] && ok ||
		bad "exact values: got '$(cat "$work/exact.got")', want '$want'"
else
	bad "ptxsurf-as rejects the exact-values kernel: $(head -n 1 "$work/err")"
fi

# 7. BAR.SYNC orders the warps of a block: after the barrier thread i
# reads the word thread i^32 (the other warp) wrote before it.
cat >"$work/bar.ptx" <<'PTX'
.version 7.8
.target sm_50
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r1;
	bar.sync 0;
	xor.b32 %r2, %r1, 32;
	mul.wide.u32 %rd4, %r2, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r3, [%rd5];
	st.global.u32 [%rd3+256], %r3;
	ret;
}
PTX
if "$prog" -o "$work/bar.cubin" "$work/bar.ptx" 2>"$work/err"; then
	"$sim" --dump --block 64,1,1 "$work/bar.cubin" >"$work/bar.out" 2>&1
	got=$(sed -n 's/^  param0.buffer+0100: //p' "$work/bar.out" | cut -c1-23)
	[ "$got" = '20 00 00 00 21 00 00 00' ] && ok || bad "barrier: thread 0 read '$got', not thread 32's id"
else
	bad "ptxsurf-as rejects the barrier kernel: $(head -n 1 "$work/err")"
fi

# 9. Issue 14's memory models, against values PTX defines: 64 threads add
# 1 to a shared counter (zeroed at the block's start) -> 64; a ballot of
# tid < 5 in warp 0 -> 0x1f; a store through cvta.shared's generic address
# read back by ld.shared, and a local word through cvta.local and back;
# atom.cas that matches and one that does not. Then the failures: two
# threads storing one shared byte between two barriers is a race (the same
# byte in two phases is not), and a shared access past the block's bytes
# stops the run.
cat >"$work/mem.ptx" <<'PTX'
.version 7.8
.target sm_50
.address_size 64
.visible .entry k(.param .u64 out)
{
	.shared .align 4 .b32 cnt;
	.shared .align 8 .b8 sh[64];
	.local .align 4 .b8 loc[8];
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r9, MODE;
	mov.u32 %r1, %tid.x;
	atom.shared.add.u32 %r2, [cnt], 1;
	setp.lt.u32 %p1, %r1, 5;
	vote.sync.ballot.b32 %r3, %p1, -1;
	setp.ne.u32 %p2, %r1, 0;
	@%p2 bra WAIT;
	mov.u64 %rd2, sh;
	cvta.shared.u64 %rd3, %rd2;
	mov.u32 %r4, 0x1234;
	st.u32 [%rd3+8], %r4;
	mov.u64 %rd4, loc;
	cvta.local.u64 %rd5, %rd4;
	st.u32 [%rd5+4], %r3;
	ld.local.u32 %r5, [loc+4];
	atom.shared.cas.b32 %r6, [sh+8], 0x1234, 7;
	atom.shared.cas.b32 %r7, [sh+8], 0x1234, 9;
	ld.shared.u32 %r8, [sh+8];
	st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
WAIT:
	bar.sync 0;
	setp.eq.u32 %p3, %r9, 1;
	@%p3 st.shared.u32 [sh], %r1;
	setp.eq.u32 %p3, %r9, 2;
	@%p3 st.shared.u32 [sh+4096], %r1;
	bar.sync 0;
	setp.eq.u32 %p3, %r9, 3;
	setp.eq.and.u32 %p3, %r1, 1, %p3;
	@%p3 st.shared.u32 [sh+8], %r1;
	@%p2 bra END;
	ld.shared.u32 %r10, [cnt];
	st.global.v2.u32 [%rd1], {%r10, %r3};
END:
	ret;
}
PTX
# MODE 0: no extra store; 1: every thread stores sh[0] between the
# barriers; 2: a store past the shared bytes; 3: thread 1 stores the word
# thread 0 wrote before the first barrier (two phases: no race)
built=0
for m in 0 1 2 3; do
	sed "s/MODE/$m/" "$work/mem.ptx" >"$work/mem$m.ptx"
	"$prog" -o "$work/mem$m.cubin" "$work/mem$m.ptx" 2>"$work/err" && built=$((built + 1))
	"$sim" --dump --block 64,1,1 "$work/mem$m.cubin" >"$work/mem$m.out" 2>&1
done
if [ "$built" = 4 ]; then
	sed -n 's/^  param0.buffer+0000: //p' "$work/mem0.out" >"$work/mem0.line"
	[ "$(cut -c1-23 "$work/mem0.line")" = '40 00 00 00 1f 00 00 00' ] && ok ||
		bad "counter, ballot: '$(cut -c1-23 "$work/mem0.line")'"
	[ "$(cut -c49-95 "$work/mem0.line")" = '1f 00 00 00 34 12 00 00 07 00 00 00 07 00 00 00' ] && ok ||
		bad "generic, local, cas: '$(cut -c49-95 "$work/mem0.line")'"
	grep -q 'data race: threads 0 and 1 both write shared' "$work/mem1.out" && ok ||
		bad "no shared race for two stores between two barriers: $(head -n 1 "$work/mem1.out")"
	grep -q 'outside the block' "$work/mem2.out" && ok ||
		bad "a shared access past the block's bytes ran: $(head -n 1 "$work/mem2.out")"
	grep -q '^ptxsurf-sim: ' "$work/mem3.out" && bad "a store of another phase counts as a race: $(head -n 1 "$work/mem3.out")" || ok
else
	bad "ptxsurf-as rejects the memory kernel: $(head -n 1 "$work/err")"
fi

# 10. The hardware's reconvergence stack (SIM_DIVERGENCE=hw-taken and
# hw-fallthrough, sim_run.c): a warp joins its groups only through SSY/SYNC
# and PBK/BRK. A SHFL.BFLY by 16 after an if/else (lanes 0-15 set 7, the
# others 9) and after a loop each lane leaves after tid+1 turns must read
# the other half's final value: with the tokens every model gets it (lane 0
# reads 9, lane 16 reads 7; after the loop lane 0 reads 17, lane 16 reads
# 1); without them (plain BRAs) the first group to reach the SHFL reads the
# other group's stale register, which only the idealised model hides. A
# SYNC with no SSY token is a warp that never reconverges: the run fails.
sass_head='.kernel k
.param 8
        MOV R1, c[0x0][0x20];
        S2R R0, SR_TID.X;
        ISCADD R2.CC, R0, c[0x0][0x140], 0x2;
        IADD.X R3, RZ, c[0x0][0x144];
        MOV R4, RZ;'
sass_tail='        SHFL.BFLY PT, R5, R4, 0x10, 0x1f;
        STG.E [R2], R5;
        EXIT;'
{ echo "$sass_head"; cat <<'SASS'; echo "$sass_tail"; } >"$work/ifelse.sass"
        ISETP.LT.U32.AND P0, PT, R0, 0x10, PT;
        SSY join;
        @P0 BRA low;
        MOV32I R4, 0x9;
        SYNC;
low:
        MOV32I R4, 0x7;
        SYNC;
join:
SASS
{ echo "$sass_head"; cat <<'SASS'; echo "$sass_tail"; } >"$work/loop.sass"
        PBK done;
again:
        IADD32I R4, R4, 0x1;
        ISETP.GT.U32.AND P1, PT, R4, R0, PT;
        @P1 BRK;
        BRA again;
done:
SASS
sed -e '/SSY join/d' -e 's/^        SYNC;/        BRA join;/' "$work/ifelse.sass" >"$work/ifelse-bra.sass"
sed -e '/PBK done/d' -e 's/@P1 BRK;/@P1 BRA done;/' "$work/loop.sass" >"$work/loop-bra.sass"
sed -e '/SSY join/d' "$work/ifelse.sass" >"$work/nossy.sass"
# the words lane 0 and lane 16 write: FILE MODEL
lanes() {
	SIM_DIVERGENCE=$2 "$sim" --dump --block 32,1,1 "$work/$1.cubin" 2>&1 |
		sed -n 's/^  param0.buffer+00[04]0: \(..\).*/\1/p' | tr '\n' ' '
}
for f in ifelse loop ifelse-bra loop-bra nossy; do
	"$prog" --input=sass --schedule=auto -o "$work/$f.cubin" "$work/$f.sass" 2>"$work/err" ||
		bad "ptxsurf-as rejects $f.sass: $(head -n 1 "$work/err")"
done
for model in ideal hw-taken hw-fallthrough; do
	got=$(lanes ifelse $model)
	[ "$got" = '09 07 ' ] && ok || bad "if/else under SSY/SYNC ($model): lanes 0 and 16 read '$got', not '09 07'"
	got=$(lanes loop $model)
	[ "$got" = '11 01 ' ] && ok || bad "loop under PBK/BRK ($model): lanes 0 and 16 read '$got', not '11 01'"
done
[ "$(lanes ifelse-bra ideal)" = '09 07 ' ] && ok || bad "the ideal model no longer joins plain BRAs"
# the group run first reads the other's stale 0 (taken first: lanes 0-15)
got=$(lanes ifelse-bra hw-taken)
[ "$got" = '00 07 ' ] && ok || bad "if/else without SSY/SYNC under hw-taken: '$got', not '00 07'"
got=$(lanes ifelse-bra hw-fallthrough)
[ "$got" = '09 00 ' ] && ok || bad "if/else without SSY/SYNC under hw-fallthrough: '$got', not '09 00'"
# lane 0 leaves first and reads lane 16's count of that moment, 1
got=$(lanes loop-bra hw-taken)
[ "$got" = '01 01 ' ] && ok || bad "a loop without PBK/BRK under hw-taken: '$got', not '01 01'"
SIM_DIVERGENCE=hw-taken "$sim" --block 32,1,1 "$work/nossy.cubin" >"$work/out" 2>&1
grep -q 'SYNC with no SSY token' "$work/out" && ok || bad "a SYNC without SSY ran: $(head -n 1 "$work/out")"
SIM_DIVERGENCE=bogus "$sim" --block 32,1,1 "$work/ifelse.cubin" >"$work/out" 2>&1
grep -q 'SIM_DIVERGENCE=bogus' "$work/out" && ok || bad "a bad SIM_DIVERGENCE ran: $(head -n 1 "$work/out")"

# 11. A divergent PTX loop as ptxsurf-as assembles it (reconverge.c: SSY
# before the loop, SYNC at its exit): lane i leaves after i/4+1 turns
# adding i each turn, then the warp votes (odd lanes) and each lane reads
# lane i^16's sum with shfl.bfly. With the loop's reconvergence every model
# gives lane 0 0xaaaaaaaa + 16*5 and lane 16 0xaaaaaaaa + 0; without it
# (ptxsurf-as before loops were reconverged) the lanes that leave last
# vote and shuffle alone under the hardware models.
cat >"$work/divloop.ptx" <<'PTX'
.version 7.8
.target sm_50
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	shr.u32 %r2, %r1, 2;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
L:
	add.u32 %r4, %r4, %r1;
	add.u32 %r3, %r3, 1;
	setp.le.u32 %p1, %r3, %r2;
	@%p1 bra L;
	and.b32 %r5, %r1, 1;
	setp.ne.u32 %p2, %r5, 0;
	vote.sync.ballot.b32 %r6, %p2, 0xffffffff;
	shfl.sync.bfly.b32 %r7, %r4, 16, 0x1f, 0xffffffff;
	add.u32 %r8, %r6, %r7;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r8;
	ret;
}
PTX
# the words lane 0 and lane 16 write (little-endian bytes): MODEL
divloop_lanes() {
	SIM_DIVERGENCE=$1 "$sim" --dump --block 32,1,1 "$work/divloop.cubin" 2>&1 |
		sed -n 's/^  param0.buffer+00[04]0: \(.. .. .. ..\).*/\1/p' | tr '\n' ' '
}
if "$prog" -S -o "$work/divloop.cubin" "$work/divloop.ptx" >"$work/divloop.lst" 2>"$work/err"; then
	grep -q ' SSY ' "$work/divloop.lst" && grep -q ' SYNC ' "$work/divloop.lst" && ok ||
		bad "the divergent loop has no SSY/SYNC: $(grep -c . "$work/divloop.lst") lines listed"
	for model in ideal hw-taken hw-fallthrough; do
		got=$(divloop_lanes $model)
		[ "$got" = 'fa aa aa aa aa aa aa aa ' ] && ok ||
			bad "a divergent loop then vote and shfl ($model): lanes 0 and 16 write '$got', not 'fa aa aa aa aa aa aa aa'"
	done
else
	bad "ptxsurf-as rejects the divergent loop: $(head -n 1 "$work/err")"
fi

# 12. IADD3's 20-bit immediate is sign-extended (ptxas 11.8 -O3 adds -1
# to a high word as IADD3.X ..., 0xfffff): 5 + 0xfffff is 4, 5 + 0x7ffff
# is 0x80004 (one bit lower: no sign).
# (kernels of one 64-bit buffer parameter, its address in R2, R3)
buffer_head='.kernel k
.param 8
        MOV R2, c[0x0][0x140];
        MOV R3, c[0x0][0x144];'
{ echo "$buffer_head"; cat <<'SASS'; } >"$work/iadd3.sass"
        MOV32I R4, 0x5;
        IADD3 R5, R4, 0xfffff, RZ;
        IADD3 R6, R4, 0x7ffff, RZ;
        STG.E [R2], R5;
        STG.E [R2+0x4], R6;
        EXIT;
SASS
# The first 8 bytes $work/NAME.sass writes must be WANT: NAME WANT WHAT
first_words() {
	if "$prog" --input=sass --schedule=auto -o "$work/$1.cubin" "$work/$1.sass" 2>"$work/err"; then
		got=$("$sim" --dump "$work/$1.cubin" 2>&1 |
			sed -n 's/^  param0.buffer+0000: \(.. .. .. .. .. .. .. ..\).*/\1/p')
		[ "$got" = "$2" ] && ok || bad "$3 writes '$got', not '$2'"
	else
		bad "ptxsurf-as rejects $1.sass: $(head -n 1 "$work/err")"
	fi
}
first_words iadd3 '04 00 00 00 04 00 08 00' "IADD3 with 0xfffff and 0x7ffff on 5"

# 13. r2p14: R2P PR takes bit i of Ra's byte as Pi for the mask's bits
# (ptxas 11.8 -O3's order: `and` 1, 2, 8 + setp.ne -> R2P PR, Ra, 0xb),
# P2R PR merges the mask's predicates into that byte of Ra. Byte 1 of
# 0xa50500 is 0x05: P0 = 1, P1 = 0, P2 = 1; byte 2 is 0xa5: P4 = 0,
# P5 = 1. P2R.B2 of P0-P2 into all ones: 0xfffdffff; P2R of P0-P2, P4,
# P5 into zero: 0x25.
{ echo "$buffer_head"; cat <<'SASS'; } >"$work/r2p.sass"
        MOV32I R4, 0xa50500;
        MOV32I R6, 0xffffffff;
        R2P PR, R4.B1, 0x7;
        P2R.B2 R7, PR, R6, 0x7;
        R2P PR, R4.B2, 0x30;
        P2R R8, PR, RZ, 0x37;
        STG.E [R2], R7;
        STG.E [R2+0x4], R8;
        EXIT;
SASS
first_words r2p 'ff ff fd ff 25 00 00 00' "R2P PR / P2R PR of bytes 1 and 2"

# 14. I2F of an integer immediate (I2F_I, ptxas -O3's word in rodinia
# backprop): 4 -> 4.0f (0x40800000), -7 -> -7.0f (0xc0e00000).
{ echo "$buffer_head"; cat <<'SASS'; } >"$work/i2f-imm.sass"
        I2F.F32.U32.RP R7, 0x4;
        I2F.F32.S32 R8, -0x7;
        STG.E [R2], R7;
        STG.E [R2+0x4], R8;
        EXIT;
SASS
first_words i2f-imm '00 00 80 40 00 00 e0 c0' "I2F.F32.U32.RP of 0x4 and I2F.F32.S32 of -0x7"

# 14b. FMUL's result scale (ptxas -O3's x * y * 0.5 in HeCBench projectile):
# 3.0 * 5.0 .D2 -> 7.5 (0x40f00000), .M4 -> 60.0 (0x42700000).
{ echo "$buffer_head"; cat <<'SASS'; } >"$work/fmul-scale.sass"
        MOV32I R4, 0x40400000;
        MOV32I R5, 0x40a00000;
        FMUL.D2 R7, R4, R5;
        FMUL.M4 R8, R4, R5;
        STG.E [R2], R7;
        STG.E [R2+0x4], R8;
        EXIT;
SASS
first_words fmul-scale '00 00 f0 40 00 00 70 42' "FMUL.D2 and FMUL.M4 of 3.0 and 5.0"

# 15. A .global variable larger than one 1 MiB slot takes as many slots as
# it needs (rodinia binomialOptions has one of 16 MiB), and the variable
# after it gets its own: the word stored at big[2500000] and the one in
# after[0] are both written out.
cat >"$work/big-global.ptx" <<'PTX'
.version 6.0
.target sm_50
.address_size 64
.global .align 4 .b8 big[3000000];
.global .align 4 .u32 zafter;
.visible .entry k()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, 0x5a5a;
	st.global.u32 [big+2500000], %r1;
	st.global.u32 [zafter], %r1;
	ret;
}
PTX
if "$prog" -o "$work/big-global.cubin" "$work/big-global.ptx" 2>"$work/err"; then
	"$sim" --dump "$work/big-global.cubin" >"$work/out" 2>&1
	grep -q '^  global big+2625a0: 5a 5a 00 00' "$work/out" &&
		grep -q '^  global zafter+0000: 5a 5a 00 00' "$work/out" && ok ||
		bad "a 3 MB .global variable: $(grep -v '^  ' "$work/out" | head -n 3)"
else
	bad "ptxsurf-as rejects big-global.ptx: $(head -n 1 "$work/err")"
fi

# 16. A module of 100 .global variables (a region each; gpuocelot's
# unstructured complex has 83): a store into the last one is written out.
{
	printf '.version 6.0\n.target sm_50\n.address_size 64\n'
	i=0
	while [ $i -lt 100 ]; do printf '.global .align 4 .u32 g%03d;\n' $i; i=$((i + 1)); done
	printf '.visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n\tmov.u32 %%r1, 0x77;\n'
	printf '\tst.global.u32 [g099], %%r1;\n\tret;\n}\n'
} >"$work/many-globals.ptx"
if "$prog" -o "$work/many-globals.cubin" "$work/many-globals.ptx" 2>"$work/err"; then
	"$sim" --dump "$work/many-globals.cubin" >"$work/out" 2>&1
	grep -q '^  global g099+0000: 77 00 00 00' "$work/out" && ok ||
		bad "100 .global variables: $(grep -v '^  ' "$work/out" | head -n 2)"
else
	bad "ptxsurf-as rejects many-globals.ptx: $(head -n 1 "$work/err")"
fi

# 8. Bad input gets a message, not a crash.
printf 'not an ELF' >"$work/junk.cubin"
"$sim" "$work/junk.cubin" >"$work/out" 2>&1
[ $? -eq 2 ] && grep -q '^ptxsurf-sim: ' "$work/out" && ok || bad "junk input: $(head -n 1 "$work/out")"
"$sim" --kernel nosuch "$work/race.cubin" >"$work/out" 2>&1
grep -q "no kernel 'nosuch'" "$work/out" && ok || bad "unknown kernel: $(head -n 1 "$work/out")"

echo "sim-selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
