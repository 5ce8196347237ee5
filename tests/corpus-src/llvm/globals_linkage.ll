; Globals in every address space and with every linkage; pointer initializers.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@g_ints = addrspace(1) global [6 x i32] [i32 1, i32 -2, i32 3, i32 -4, i32 5, i32 2147483647], align 4
@g_bytes = addrspace(1) global [4 x i8] c"ptx\00", align 1
@g_half = addrspace(1) global [2 x i16] [i16 15360, i16 -17408], align 2
@g_dbl = addrspace(1) global double 0x400921FB54442D18, align 8
@g_flt = addrspace(1) global [3 x float] [float 1.5, float -0.0, float 0x7FF0000000000000], align 4
@g_ptr = addrspace(1) global i32* addrspacecast (i32 addrspace(1)* getelementptr ([6 x i32], [6 x i32] addrspace(1)* @g_ints, i64 0, i64 2) to i32*), align 8
@g_ptr_tab = addrspace(1) global [2 x i8*] [i8* addrspacecast (i8 addrspace(1)* getelementptr ([4 x i8], [4 x i8] addrspace(1)* @g_bytes, i64 0, i64 0) to i8*), i8* null], align 8
@g_gptr = addrspace(1) global i32 addrspace(1)* getelementptr ([6 x i32], [6 x i32] addrspace(1)* @g_ints, i64 0, i64 4), align 8
@g_struct = addrspace(1) global { i32, i8, double, [2 x i16] } { i32 7, i8 8, double 9.0, [2 x i16] [i16 10, i16 11] }, align 8
@g_zero = addrspace(1) global [128 x i32] zeroinitializer, align 16
@g_weak = weak addrspace(1) global i32 5, align 4
@g_common = common addrspace(1) global i32 0, align 4
@g_linkonce = linkonce_odr addrspace(1) global i64 77, align 8
@g_internal = internal addrspace(1) global i32 3, align 4
@g_extern = external addrspace(1) global [16 x float], align 4
@c_table = addrspace(4) constant [8 x i32] [i32 0, i32 1, i32 4, i32 9, i32 16, i32 25, i32 36, i32 49], align 4
@c_coef = internal addrspace(4) constant <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>, align 16
@s_tile = internal addrspace(3) global [256 x float] undef, align 4
@s_ext = external addrspace(3) global [0 x i8], align 16
@s_ctr = addrspace(3) global i32 undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define void @use_globals(float* %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %i7 = and i64 %ti, 7
  %cp = getelementptr [8 x i32], [8 x i32] addrspace(4)* @c_table, i64 0, i64 %i7
  %c = load i32, i32 addrspace(4)* %cp
  %gp = load i32*, i32** addrspacecast (i32* addrspace(1)* @g_ptr to i32**)
  %gv = load i32, i32* %gp
  %gg = load i32 addrspace(1)*, i32 addrspace(1)* addrspace(1)* @g_gptr
  %ggv = load i32, i32 addrspace(1)* %gg
  %w = load i32, i32 addrspace(1)* @g_weak
  %cm = load i32, i32 addrspace(1)* @g_common
  %lo = load i64, i64 addrspace(1)* @g_linkonce
  %in = load i32, i32 addrspace(1)* @g_internal
  %ep = getelementptr [16 x float], [16 x float] addrspace(1)* @g_extern, i64 0, i64 %i7
  %e = load float, float addrspace(1)* %ep
  %cv = load <4 x float>, <4 x float> addrspace(4)* @c_coef
  %c0 = extractelement <4 x float> %cv, i32 0
  %sp = getelementptr [256 x float], [256 x float] addrspace(3)* @s_tile, i64 0, i64 %ti
  %cf = sitofp i32 %c to float
  store float %cf, float addrspace(3)* %sp
  %se = getelementptr [0 x i8], [0 x i8] addrspace(3)* @s_ext, i64 0, i64 %ti
  store i8 1, i8 addrspace(3)* %se
  store i32 %t, i32 addrspace(3)* @s_ctr
  call void @llvm.nvvm.barrier0()
  %ri = xor i64 %ti, 1
  %sp2 = getelementptr [256 x float], [256 x float] addrspace(3)* @s_tile, i64 0, i64 %ri
  %s2 = load float, float addrspace(3)* %sp2
  %a1 = add i32 %gv, %ggv
  %a2 = add i32 %w, %cm
  %a3 = add i32 %a1, %a2
  %a4 = add i32 %a3, %in
  %lo32 = trunc i64 %lo to i32
  %a5 = add i32 %a4, %lo32
  %f = sitofp i32 %a5 to float
  %f1 = fadd float %f, %e
  %f2 = fadd float %f1, %c0
  %f3 = fadd float %f2, %s2
  %o = getelementptr float, float* %out, i64 %ti
  store float %f3, float* %o
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*)* @use_globals, !"kernel", i32 1}
