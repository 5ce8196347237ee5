; Warp-synchronous intrinsics: shfl.sync, vote.sync, match, bar.warp.sync, special registers.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare void @llvm.nvvm.barrier.sync(i32)
declare void @llvm.nvvm.barrier.sync.cnt(i32, i32)
declare i32 @llvm.ctpop.i32(i32)

define void @warp_sum(i32* %out, float* %f) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  br label %loop
loop:
  %v = phi i32 [ %t, %entry ], [ %v2, %loop ]
  %o = phi i32 [ 16, %entry ], [ %o2, %loop ]
  %s = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v, i32 %o, i32 31)
  %v2 = add i32 %v, %s
  %o2 = lshr i32 %o, 1
  %done = icmp eq i32 %o2, 0
  br i1 %done, label %exit, label %loop
exit:
  %ti = zext i32 %t to i64
  %pf = getelementptr float, float* %f, i64 %ti
  %fv = load float, float* %pf
  %fb = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %fv, i32 1, i32 31)
  store float %fb, float* %pf
  %bc = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v2, i32 0, i32 31)
  %up = call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 %bc, i32 1, i32 0)
  %upv = extractvalue { i32, i1 } %up, 0
  %upp = extractvalue { i32, i1 } %up, 1
  %odd = trunc i32 %lane to i1
  %bal = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %odd)
  %any = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %upp)
  %all = call i1 @llvm.nvvm.vote.all.sync(i32 %bal, i1 %any)
  %ma = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %upv)
  %ml = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %upv)
  %mlv = extractvalue { i32, i1 } %ml, 0
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  call void @llvm.nvvm.barrier.sync(i32 1)
  call void @llvm.nvvm.barrier.sync.cnt(i32 2, i32 64)
  %pc = call i32 @llvm.ctpop.i32(i32 %bal)
  %allz = zext i1 %all to i32
  %w = call i32 @llvm.nvvm.read.ptx.sreg.warpid()
  %lt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %clk = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %clk32 = trunc i64 %clk to i32
  %r1 = add i32 %pc, %allz
  %r2 = add i32 %r1, %ma
  %r3 = add i32 %r2, %mlv
  %r4 = add i32 %r3, %w
  %r5 = xor i32 %r4, %lt
  %r6 = add i32 %r5, %clk32
  %po = getelementptr i32, i32* %out, i64 %ti
  store i32 %r6, i32* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32*, float*)* @warp_sum, !"kernel", i32 1}
