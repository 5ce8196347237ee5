; Floating point: f16/f32/f64 arithmetic, rounding conversions, fma, min/max, rsqrt, approximations.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.sqrt.f32(float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.floor.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.fabs.f32(float)
declare double @llvm.ceil.f64(double)
declare float @llvm.nvvm.rsqrt.approx.f(float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.nvvm.lg2.approx.f(float)
declare float @llvm.nvvm.sin.approx.f(float)
declare float @llvm.nvvm.div.approx.f(float, float)
declare float @llvm.nvvm.rcp.rn.f(float)
declare double @llvm.nvvm.rcp.rn.d(double)
declare i32 @llvm.nvvm.f2i.rz(float)
declare i32 @llvm.nvvm.d2i.rm(double)
declare float @llvm.nvvm.fma.rn.ftz.f(float, float, float)
declare float @llvm.nvvm.saturate.f(float)
declare i32 @llvm.nvvm.popc.i(i32)
declare i32 @llvm.nvvm.brev32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.nvvm.prmt(i32, i32, i32)

define void @fp_kernel(float* %f, double* %d, half* %h, i32* %i) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %pf = getelementptr float, float* %f, i64 %ti
  %x = load float, float* %pf
  %a = call float @llvm.fma.f32(float %x, float %x, float 1.0)
  %b = call float @llvm.sqrt.f32(float %a)
  %c = call float @llvm.minnum.f32(float %b, float 4.0)
  %e = call float @llvm.maxnum.f32(float %c, float -4.0)
  %g = call float @llvm.floor.f32(float %e)
  %g2 = call float @llvm.trunc.f32(float %g)
  %g3 = call float @llvm.fabs.f32(float %g2)
  %r = call float @llvm.nvvm.rsqrt.approx.f(float %a)
  %ex = call float @llvm.nvvm.ex2.approx.f(float %x)
  %lg = call float @llvm.nvvm.lg2.approx.f(float %a)
  %sn = call float @llvm.nvvm.sin.approx.f(float %x)
  %dv = call float @llvm.nvvm.div.approx.f(float %x, float %a)
  %rc = call float @llvm.nvvm.rcp.rn.f(float %a)
  %ff = call float @llvm.nvvm.fma.rn.ftz.f(float %r, float %ex, float %lg)
  %sat = call float @llvm.nvvm.saturate.f(float %sn)
  %s1 = fadd float %g3, %ff
  %s2 = fdiv float %s1, %dv
  %s3 = fadd float %s2, %rc
  %s4 = fadd float %s3, %sat
  %s5 = frem float %s4, 3.0
  store float %s5, float* %pf
  %pd = getelementptr double, double* %d, i64 %ti
  %y = load double, double* %pd
  %yc = call double @llvm.ceil.f64(double %y)
  %yr = call double @llvm.nvvm.rcp.rn.d(double %yc)
  %yd = fdiv double %y, %yr
  %yf = fpext float %s5 to double
  %ys = fadd double %yd, %yf
  store double %ys, double* %pd
  %ph = getelementptr half, half* %h, i64 %ti
  %hv = load half, half* %ph
  %hm = fmul half %hv, 0xH3C00
  %ha = fadd half %hm, 0xH4000
  %hc = fcmp olt half %ha, 0xH0000
  %hs = select i1 %hc, half 0xH0000, half %ha
  store half %hs, half* %ph
  %hf = fpext half %hs to float
  %fi = call i32 @llvm.nvvm.f2i.rz(float %hf)
  %di = call i32 @llvm.nvvm.d2i.rm(double %ys)
  %pc = call i32 @llvm.nvvm.popc.i(i32 %fi)
  %bv = call i32 @llvm.nvvm.brev32(i32 %di)
  %cz = call i32 @llvm.ctlz.i32(i32 %bv, i1 false)
  %fs = call i32 @llvm.fshl.i32(i32 %pc, i32 %cz, i32 %t)
  %pm = call i32 @llvm.nvvm.prmt(i32 %fs, i32 %bv, i32 12816)
  %u2f = uitofp i32 %pm to float
  %f2u = fptoui float %u2f to i64
  %f2u32 = trunc i64 %f2u to i32
  %pi = getelementptr i32, i32* %i, i64 %ti
  store i32 %f2u32, i32* %pi
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, double*, half*, i32*)* @fp_kernel, !"kernel", i32 1}
