; Dynamically indexed private arrays (.local depot, %SP/%SPL) and a stack-passing call.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define i32 @sum_local(i32* %a, i32 %n) noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %ix = zext i32 %i to i64
  %p = getelementptr i32, i32* %a, i64 %ix
  %v = load i32, i32* %p
  %s1 = add i32 %s, %v
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %s1
}

define void @private_array(i32* %idx, i32* %out) {
entry:
  %buf = alloca [24 x i32], align 4
  %dbl = alloca [4 x double], align 8
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %fill
fill:
  %i = phi i32 [ 0, %entry ], [ %i1, %fill ]
  %ix = zext i32 %i to i64
  %pi = getelementptr [24 x i32], [24 x i32]* %buf, i64 0, i64 %ix
  %q = getelementptr i32, i32* %idx, i64 %ix
  %qv = load i32, i32* %q
  %m = mul i32 %qv, %t
  store i32 %m, i32* %pi
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 24
  br i1 %c, label %fill, label %use
use:
  %k = load i32, i32* %idx
  %k1 = urem i32 %k, 24
  %kx = zext i32 %k1 to i64
  %pk = getelementptr [24 x i32], [24 x i32]* %buf, i64 0, i64 %kx
  %vk = load volatile i32, i32* %pk
  %k4 = and i64 %kx, 3
  %pd = getelementptr [4 x double], [4 x double]* %dbl, i64 0, i64 %k4
  store volatile double 1.5, double* %pd
  %dv = load volatile double, double* %pd
  %di = fptosi double %dv to i32
  %p0 = getelementptr [24 x i32], [24 x i32]* %buf, i64 0, i64 0
  %s = call i32 @sum_local(i32* %p0, i32 %k1)
  %r = add i32 %s, %vk
  %r2 = add i32 %r, %di
  %tx = zext i32 %t to i64
  %po = getelementptr i32, i32* %out, i64 %tx
  store i32 %r2, i32* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @private_array, !"kernel", i32 1}
