; Constructs newer LLVM emits (opaque pointers; llc-22 only): .attribute(.managed),
; .common, .alias, .weak/.extern functions, .noreturn, .pragma "nounroll", i128, aggregates.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Rec = type { i32, [3 x float], i64 }

@managed_count = addrspace(1) externally_initialized global i32 0, align 4
@common_slot = common addrspace(1) global i64 0, align 8
@wide_table = addrspace(1) global [2 x i128] [i128 1, i128 -1], align 16

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @fatal_error(i32) noreturn
declare float @external_hook(float)

@step_alias = alias float (float), ptr @step_impl

define float @step_impl(float %x) noinline {
  %r = fmul float %x, 0.5
  ret float %r
}

define weak float @weak_helper(float %x) noinline {
  %r = fadd float %x, 1.0
  ret float %r
}

define internal %struct.Rec @make_rec(i32 %k, float %f) noinline {
  %a = insertvalue %struct.Rec undef, i32 %k, 0
  %b = insertvalue %struct.Rec %a, float %f, 1, 2
  %c = insertvalue %struct.Rec %b, i64 42, 2
  ret %struct.Rec %c
}

define ptx_kernel void @features(ptr %out, i32 %n, i128 %big) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bad = icmp slt i32 %n, 0
  br i1 %bad, label %fail, label %loop
fail:
  call void @fatal_error(i32 %n)
  unreachable
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %fi = sitofp i32 %i to float
  %s0 = call float @step_alias(float %fi)
  %s = call float @weak_helper(float %s0)
  %acc1 = fadd float %acc, %s
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done, !llvm.loop !1
done:
  %h = call float @external_hook(float %acc1)
  %r = call %struct.Rec @make_rec(i32 %t, float %h)
  %rf = extractvalue %struct.Rec %r, 1, 2
  %rl = extractvalue %struct.Rec %r, 2
  %w = load i128, ptr addrspace(1) @wide_table, align 16
  %m = mul i128 %w, %big
  %sum = add i128 %m, 340282366920938463463374607431768211
  %sh = lshr i128 %sum, 67
  %lo = trunc i128 %sh to i64
  %x = add i64 %lo, %rl
  %old = atomicrmw add ptr addrspace(1) @managed_count, i32 1 monotonic
  store i64 %x, ptr addrspace(1) @common_slot, align 8
  %tx = zext i32 %t to i64
  %po = getelementptr float, ptr %out, i64 %tx
  store float %rf, ptr %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr addrspace(1) @managed_count, !"managed", i32 1}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.unroll.disable"}
