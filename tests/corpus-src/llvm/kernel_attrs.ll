; Kernel performance directives via nvvm.annotations: .maxntid, .reqntid,
; .minnctapersm, .maxnreg; plus a device function and a plain kernel.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

define void @saxpy(i32 %n, float %a, float* noalias %x, float* noalias %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %cta, %ntid
  %i0 = add i32 %base, %tid
  %stride = mul i32 %ntid, %nct
  br label %loop
loop:
  %i = phi i32 [ %i0, %entry ], [ %inext, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %ix = sext i32 %i to i64
  %px = getelementptr inbounds float, float* %x, i64 %ix
  %py = getelementptr inbounds float, float* %y, i64 %ix
  %vx = load float, float* %px, align 4
  %vy = load float, float* %py, align 4
  %m = fmul contract float %a, %vx
  %r = fadd contract float %m, %vy
  store float %r, float* %py, align 4
  %inext = add i32 %i, %stride
  br label %loop
exit:
  ret void
}

define void @fixed_block(i32* %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %p = getelementptr i32, i32* %out, i64 %ti
  store i32 %t, i32* %p
  ret void
}

define void @occupancy(double* %d) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %p = getelementptr double, double* %d, i64 %ti
  %v = load double, double* %p
  %s = call double @llvm.sqrt.f64(double %v)
  %f = call double @llvm.fma.f64(double %s, double %v, double 1.0)
  store double %f, double* %p
  ret void
}

define float @helper(float %x) noinline {
  %r = call float @llvm.nvvm.fabs.f(float %x)
  ret float %r
}

define void @plain(float* %p) {
  %v = load float, float* %p
  %r = call float @helper(float %v)
  store float %r, float* %p
  ret void
}

declare double @llvm.sqrt.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.nvvm.fabs.f(float)

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9, !10}
!0 = !{void (i32, float, float*, float*)* @saxpy, !"kernel", i32 1}
!1 = !{void (i32, float, float*, float*)* @saxpy, !"maxntidx", i32 256}
!2 = !{void (i32, float, float*, float*)* @saxpy, !"minctasm", i32 2}
!3 = !{void (i32*)* @fixed_block, !"kernel", i32 1}
!4 = !{void (i32*)* @fixed_block, !"reqntidx", i32 32}
!5 = !{void (i32*)* @fixed_block, !"reqntidy", i32 4}
!6 = !{void (i32*)* @fixed_block, !"reqntidz", i32 2}
!7 = !{void (double*)* @occupancy, !"kernel", i32 1}
!8 = !{void (double*)* @occupancy, !"maxnreg", i32 64}
!9 = !{void (double*)* @occupancy, !"maxntidy", i32 8}
!10 = !{void (float*)* @plain, !"kernel", i32 1}
