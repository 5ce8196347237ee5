; OpenCL-style (nvcl driver interface): .texmode_independent, separate samplers.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-nvcl"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare { float, float, float, float } @llvm.nvvm.tex.2d.v4f32.f32(i64, i64, float, float)
declare { i32, i32, i32, i32 } @llvm.nvvm.tex.1d.v4s32.s32(i64, i64, i32)
declare i32 @llvm.nvvm.txq.width(i64)
declare i32 @llvm.nvvm.suld.2d.i32.clamp(i64, i32, i32)
declare void @llvm.nvvm.sust.p.2d.v4i32.trap(i64, i32, i32, i32, i32, i32, i32)

define void @sample_image(i64 %img, i64 %smp, i64 %dst, i64 %buf1d) {
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %fx = uitofp i32 %x to float
  %fy = uitofp i32 %y to float
  %c = call { float, float, float, float } @llvm.nvvm.tex.2d.v4f32.f32(i64 %img, i64 %smp, float %fx, float %fy)
  %r = extractvalue { float, float, float, float } %c, 0
  %g = extractvalue { float, float, float, float } %c, 1
  %b = extractvalue { float, float, float, float } %c, 2
  %i = call { i32, i32, i32, i32 } @llvm.nvvm.tex.1d.v4s32.s32(i64 %buf1d, i64 %smp, i32 %x)
  %i0 = extractvalue { i32, i32, i32, i32 } %i, 0
  %w = call i32 @llvm.nvvm.txq.width(i64 %img)
  %prev = call i32 @llvm.nvvm.suld.2d.i32.clamp(i64 %dst, i32 %x, i32 %y)
  %ri = bitcast float %r to i32
  %gi = bitcast float %g to i32
  %bi = bitcast float %b to i32
  %a = add i32 %i0, %w
  %a2 = add i32 %a, %prev
  call void @llvm.nvvm.sust.p.2d.v4i32.trap(i64 %dst, i32 %x, i32 %y, i32 %ri, i32 %gi, i32 %bi, i32 %a2)
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{void (i64, i64, i64, i64)* @sample_image, !"kernel", i32 1}
!1 = !{void (i64, i64, i64, i64)* @sample_image, !"rdoimage", i32 0}
!2 = !{void (i64, i64, i64, i64)* @sample_image, !"sampler", i32 1}
!3 = !{void (i64, i64, i64, i64)* @sample_image, !"wroimage", i32 2}
!4 = !{void (i64, i64, i64, i64)* @sample_image, !"rdoimage", i32 3}
