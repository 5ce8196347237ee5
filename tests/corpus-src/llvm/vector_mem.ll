; Vector loads/stores, ldg/ldu, volatile, misaligned scalars, param vectors.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare <4 x float> @llvm.nvvm.ldg.global.f.v4f32.p1v4f32(<4 x float> addrspace(1)*, i32)
declare i32 @llvm.nvvm.ldu.global.i.i32.p1i32(i32 addrspace(1)*, i32)

define void @vec_copy(<4 x float> addrspace(1)* noalias readonly %in, <4 x float> addrspace(1)* %out,
                      <2 x double> addrspace(1)* %d2, <4 x i8> addrspace(1)* %b4, <2 x i16> addrspace(1)* %h2,
                      <4 x i32> addrspace(1)* %i4, <2 x i64> addrspace(1)* %l2, i32 addrspace(1)* %u) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %pi = getelementptr <4 x float>, <4 x float> addrspace(1)* %in, i64 %ti
  %v = call <4 x float> @llvm.nvvm.ldg.global.f.v4f32.p1v4f32(<4 x float> addrspace(1)* %pi, i32 16)
  %w = fmul <4 x float> %v, <float 2.0, float 2.0, float 2.0, float 2.0>
  %po = getelementptr <4 x float>, <4 x float> addrspace(1)* %out, i64 %ti
  store <4 x float> %w, <4 x float> addrspace(1)* %po, align 16
  %pd = getelementptr <2 x double>, <2 x double> addrspace(1)* %d2, i64 %ti
  %dv = load <2 x double>, <2 x double> addrspace(1)* %pd, align 16
  %dv2 = fadd <2 x double> %dv, <double 1.0, double -1.0>
  store <2 x double> %dv2, <2 x double> addrspace(1)* %pd, align 16
  %pb = getelementptr <4 x i8>, <4 x i8> addrspace(1)* %b4, i64 %ti
  %bv = load <4 x i8>, <4 x i8> addrspace(1)* %pb, align 4
  %bv2 = add <4 x i8> %bv, <i8 1, i8 2, i8 3, i8 4>
  store <4 x i8> %bv2, <4 x i8> addrspace(1)* %pb, align 4
  %ph = getelementptr <2 x i16>, <2 x i16> addrspace(1)* %h2, i64 %ti
  %hv = load volatile <2 x i16>, <2 x i16> addrspace(1)* %ph, align 4
  %hv2 = shl <2 x i16> %hv, <i16 1, i16 2>
  store volatile <2 x i16> %hv2, <2 x i16> addrspace(1)* %ph, align 4
  %p4 = getelementptr <4 x i32>, <4 x i32> addrspace(1)* %i4, i64 %ti
  %iv = load <4 x i32>, <4 x i32> addrspace(1)* %p4, align 16
  %uu = call i32 @llvm.nvvm.ldu.global.i.i32.p1i32(i32 addrspace(1)* %u, i32 4)
  %ins = insertelement <4 x i32> %iv, i32 %uu, i32 2
  store <4 x i32> %ins, <4 x i32> addrspace(1)* %p4, align 16
  %pl = getelementptr <2 x i64>, <2 x i64> addrspace(1)* %l2, i64 %ti
  %lv = load <2 x i64>, <2 x i64> addrspace(1)* %pl, align 16
  %lv2 = xor <2 x i64> %lv, <i64 -1, i64 81985529216486895>
  store <2 x i64> %lv2, <2 x i64> addrspace(1)* %pl, align 16
  %un = bitcast i32 addrspace(1)* %u to i8 addrspace(1)*
  %un1 = getelementptr i8, i8 addrspace(1)* %un, i64 1
  %un2 = bitcast i8 addrspace(1)* %un1 to i32 addrspace(1)*
  store i32 %t, i32 addrspace(1)* %un2, align 1
  ret void
}

define <4 x float> @vec_ret(<4 x float> %a, <2 x i32> %b, i8 %c, i16 %d) noinline {
  %bf = sitofp <2 x i32> %b to <2 x float>
  %e = extractelement <2 x float> %bf, i32 1
  %cf = sitofp i8 %c to float
  %df = uitofp i16 %d to float
  %s = fadd float %cf, %df
  %s2 = fadd float %s, %e
  %r = insertelement <4 x float> %a, float %s2, i32 3
  ret <4 x float> %r
}

define void @vec_call(<4 x float>* %p, i8 %c, i16 %d) {
  %v = load <4 x float>, <4 x float>* %p
  %r = call <4 x float> @vec_ret(<4 x float> %v, <2 x i32> <i32 3, i32 4>, i8 %c, i16 %d)
  store <4 x float> %r, <4 x float>* %p
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (<4 x float> addrspace(1)*, <4 x float> addrspace(1)*, <2 x double> addrspace(1)*, <4 x i8> addrspace(1)*, <2 x i16> addrspace(1)*, <4 x i32> addrspace(1)*, <2 x i64> addrspace(1)*, i32 addrspace(1)*)* @vec_copy, !"kernel", i32 1}
!1 = !{void (<4 x float>*, i8, i16)* @vec_call, !"kernel", i32 1}
