; Direct, indirect (.callprototype), recursive, noreturn, byval and extern calls.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.V3 = type { float, float, float }
%struct.Big = type { [5 x i64], i8 }

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vprintf(i8*, i8*)
declare float @ext_math(float, i32)
declare void @ext_abort() noreturn
declare void @llvm.trap() noreturn

@fmt = private unnamed_addr addrspace(1) constant [11 x i8] c"t=%d v=%f\0A\00", align 1
@ops = internal addrspace(1) global [2 x float (float)*] [float (float)* @sq, float (float)* @neg], align 8

define internal float @sq(float %x) noinline { %r = fmul float %x, %x
  ret float %r }
define internal float @neg(float %x) noinline { %r = fneg float %x
  ret float %r }

define i32 @fact(i32 %n) noinline {
  %c = icmp sle i32 %n, 1
  br i1 %c, label %base, label %rec
base:
  ret i32 1
rec:
  %m = sub i32 %n, 1
  %f = call i32 @fact(i32 %m)
  %r = mul i32 %n, %f
  ret i32 %r
}

define %struct.V3 @cross(%struct.V3* byval(%struct.V3) align 4 %a, %struct.V3* byval(%struct.V3) align 4 %b) noinline {
  %ax = getelementptr %struct.V3, %struct.V3* %a, i32 0, i32 0
  %ay = getelementptr %struct.V3, %struct.V3* %a, i32 0, i32 1
  %bx = getelementptr %struct.V3, %struct.V3* %b, i32 0, i32 0
  %by = getelementptr %struct.V3, %struct.V3* %b, i32 0, i32 1
  %x1 = load float, float* %ax
  %y1 = load float, float* %ay
  %x2 = load float, float* %bx
  %y2 = load float, float* %by
  %p = fmul float %x1, %y2
  %q = fmul float %y1, %x2
  %z = fsub float %p, %q
  %r0 = insertvalue %struct.V3 undef, float 0.0, 0
  %r1 = insertvalue %struct.V3 %r0, float 0.0, 1
  %r2 = insertvalue %struct.V3 %r1, float %z, 2
  ret %struct.V3 %r2
}

define i64 @sum_big(%struct.Big* byval(%struct.Big) align 8 %b, <2 x float> %v, i1 %flag) noinline {
  %p = getelementptr %struct.Big, %struct.Big* %b, i32 0, i32 0, i32 3
  %x = load i64, i64* %p
  %e = extractelement <2 x float> %v, i32 1
  %ei = fptosi float %e to i64
  %s = add i64 %x, %ei
  %r = select i1 %flag, i64 %s, i64 0
  ret i64 %r
}

define void @caller(float* %out, i32 %which) {
entry:
  %args = alloca { i32, double }, align 8
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bad = icmp eq i32 %which, 99
  br i1 %bad, label %die, label %go
die:
  call void @ext_abort()
  unreachable
go:
  %trapc = icmp eq i32 %which, 98
  br i1 %trapc, label %trap, label %work
trap:
  call void @llvm.trap()
  unreachable
work:
  %sel = and i32 %which, 1
  %si = zext i32 %sel to i64
  %fp = getelementptr [2 x float (float)*], [2 x float (float)*] addrspace(1)* @ops, i64 0, i64 %si
  %f = load float (float)*, float (float)* addrspace(1)* %fp
  %tf = sitofp i32 %t to float
  %r = call float %f(float %tf)
  %fa = call i32 @fact(i32 %which)
  %fac = sitofp i32 %fa to float
  %a = alloca %struct.V3, align 4
  %b = alloca %struct.V3, align 4
  %ap = getelementptr %struct.V3, %struct.V3* %a, i32 0, i32 0
  store float %tf, float* %ap
  %bp = getelementptr %struct.V3, %struct.V3* %b, i32 0, i32 1
  store float %r, float* %bp
  %c = call %struct.V3 @cross(%struct.V3* byval(%struct.V3) align 4 %a, %struct.V3* byval(%struct.V3) align 4 %b)
  %cz = extractvalue %struct.V3 %c, 2
  %big = alloca %struct.Big, align 8
  %bb = getelementptr %struct.Big, %struct.Big* %big, i32 0, i32 0, i32 3
  %t64 = zext i32 %t to i64
  store i64 %t64, i64* %bb
  %vv = insertelement <2 x float> <float 1.0, float 2.0>, float %r, i32 0
  %sb = call i64 @sum_big(%struct.Big* byval(%struct.Big) align 8 %big, <2 x float> %vv, i1 true)
  %sbf = sitofp i64 %sb to float
  %e = call float @ext_math(float %cz, i32 %t)
  %s1 = fadd float %r, %fac
  %s2 = fadd float %s1, %e
  %s3 = fadd float %s2, %sbf
  %a0 = getelementptr { i32, double }, { i32, double }* %args, i32 0, i32 0
  store i32 %t, i32* %a0
  %a1 = getelementptr { i32, double }, { i32, double }* %args, i32 0, i32 1
  %d = fpext float %s3 to double
  store double %d, double* %a1
  %fmtp = addrspacecast i8 addrspace(1)* getelementptr ([11 x i8], [11 x i8] addrspace(1)* @fmt, i64 0, i64 0) to i8*
  %ap8 = bitcast { i32, double }* %args to i8*
  %pr = call i32 @vprintf(i8* %fmtp, i8* %ap8)
  %o = getelementptr float, float* %out, i64 %t64
  store float %s3, float* %o
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, i32)* @caller, !"kernel", i32 1}
