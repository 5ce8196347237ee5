; Module-scope texture and surface references (.texref/.surfref) used via
; unified texture/surface instructions.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tex_img = addrspace(1) global i64 0, align 8
@tex_lut = addrspace(1) global i64 0, align 8
@surf_src = addrspace(1) global i64 0, align 8
@surf_dst = addrspace(1) global i64 0, align 8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i64 @llvm.nvvm.texsurf.handle.internal.p1i64(i64 addrspace(1)*)
declare { float, float, float, float } @llvm.nvvm.tex.unified.2d.v4f32.f32(i64, float, float)
declare { float, float, float, float } @llvm.nvvm.tex.unified.1d.v4f32.s32(i64, i32)
declare { i32, i32, i32, i32 } @llvm.nvvm.tex.unified.2d.v4s32.f32(i64, float, float)
declare { float, float, float, float } @llvm.nvvm.tex.unified.3d.v4f32.f32(i64, float, float, float)
declare { float, float, float, float } @llvm.nvvm.tex.unified.2d.level.v4f32.f32(i64, float, float, float)
declare { float, float, float, float } @llvm.nvvm.tld4.unified.g.2d.v4f32.f32(i64, float, float)
declare i32 @llvm.nvvm.txq.width(i64)
declare i32 @llvm.nvvm.txq.height(i64)
declare i32 @llvm.nvvm.txq.num.mipmap.levels(i64)
declare i32 @llvm.nvvm.suld.2d.i32.trap(i64, i32, i32)
declare void @llvm.nvvm.sust.b.2d.i32.trap(i64, i32, i32, i32)
declare { i16, i16, i16, i16 } @llvm.nvvm.suld.2d.v4i16.zero(i64, i32, i32)
declare void @llvm.nvvm.sust.b.2d.v4i16.zero(i64, i32, i32, i16, i16, i16, i16)

define void @sample_to_surface(float %u0, float %v0) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ht = call i64 @llvm.nvvm.texsurf.handle.internal.p1i64(i64 addrspace(1)* @tex_img)
  %hs = call i64 @llvm.nvvm.texsurf.handle.internal.p1i64(i64 addrspace(1)* @surf_dst)
  %fx = sitofp i32 %tx to float
  %fy = sitofp i32 %by to float
  %u = fadd float %fx, %u0
  %v = fadd float %fy, %v0
  %s = call { float, float, float, float } @llvm.nvvm.tex.unified.2d.v4f32.f32(i64 %ht, float %u, float %v)
  %r = extractvalue { float, float, float, float } %s, 0
  %ri = fptosi float %r to i32
  %xb = shl i32 %tx, 2
  call void @llvm.nvvm.sust.b.2d.i32.trap(i64 %hs, i32 %xb, i32 %by, i32 %ri)
  ret void
}

define void @surface_ref_copy() {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %a = call i64 @llvm.nvvm.texsurf.handle.internal.p1i64(i64 addrspace(1)* @surf_src)
  %b = call i64 @llvm.nvvm.texsurf.handle.internal.p1i64(i64 addrspace(1)* @surf_dst)
  %xb = shl i32 %tx, 2
  %v = call i32 @llvm.nvvm.suld.2d.i32.trap(i64 %a, i32 %xb, i32 %by)
  call void @llvm.nvvm.sust.b.2d.i32.trap(i64 %b, i32 %xb, i32 %by, i32 %v)
  %x8 = shl i32 %tx, 3
  %q = call { i16, i16, i16, i16 } @llvm.nvvm.suld.2d.v4i16.zero(i64 %a, i32 %x8, i32 %by)
  %q0 = extractvalue { i16, i16, i16, i16 } %q, 0
  %q3 = extractvalue { i16, i16, i16, i16 } %q, 3
  call void @llvm.nvvm.sust.b.2d.v4i16.zero(i64 %b, i32 %x8, i32 %by, i16 %q3, i16 %q0, i16 %q3, i16 %q0)
  ret void
}

define void @texture_mix(float* %out, i32* %iout, float %lod) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ht = call i64 @llvm.nvvm.texsurf.handle.internal.p1i64(i64 addrspace(1)* @tex_img)
  %hl = call i64 @llvm.nvvm.texsurf.handle.internal.p1i64(i64 addrspace(1)* @tex_lut)
  %f = sitofp i32 %tx to float
  %a = call { float, float, float, float } @llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %hl, i32 %tx)
  %b = call { float, float, float, float } @llvm.nvvm.tex.unified.3d.v4f32.f32(i64 %ht, float %f, float 0.5, float 0.25)
  %c = call { float, float, float, float } @llvm.nvvm.tex.unified.2d.level.v4f32.f32(i64 %ht, float %f, float 0.5, float %lod)
  %d = call { float, float, float, float } @llvm.nvvm.tld4.unified.g.2d.v4f32.f32(i64 %ht, float %f, float 1.5)
  %e = call { i32, i32, i32, i32 } @llvm.nvvm.tex.unified.2d.v4s32.f32(i64 %hl, float %f, float 0.0)
  %a0 = extractvalue { float, float, float, float } %a, 0
  %b1 = extractvalue { float, float, float, float } %b, 1
  %c2 = extractvalue { float, float, float, float } %c, 2
  %d3 = extractvalue { float, float, float, float } %d, 3
  %s1 = fadd float %a0, %b1
  %s2 = fadd float %c2, %d3
  %s3 = fadd float %s1, %s2
  %idx = zext i32 %tx to i64
  %p = getelementptr float, float* %out, i64 %idx
  store float %s3, float* %p
  %w = call i32 @llvm.nvvm.txq.width(i64 %ht)
  %h = call i32 @llvm.nvvm.txq.height(i64 %ht)
  %m = call i32 @llvm.nvvm.txq.num.mipmap.levels(i64 %ht)
  %e0 = extractvalue { i32, i32, i32, i32 } %e, 0
  %t1 = add i32 %w, %h
  %t2 = add i32 %m, %e0
  %t3 = mul i32 %t1, %t2
  %q = getelementptr i32, i32* %iout, i64 %idx
  store i32 %t3, i32* %q
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{void (float, float)* @sample_to_surface, !"kernel", i32 1}
!1 = !{void ()* @surface_ref_copy, !"kernel", i32 1}
!2 = !{void (float*, i32*, float)* @texture_mix, !"kernel", i32 1}
!3 = !{i64 addrspace(1)* @tex_img, !"texture", i32 1}
!4 = !{i64 addrspace(1)* @tex_lut, !"texture", i32 1}
!5 = !{i64 addrspace(1)* @surf_src, !"surface", i32 1}
!6 = !{i64 addrspace(1)* @surf_dst, !"surface", i32 1}
