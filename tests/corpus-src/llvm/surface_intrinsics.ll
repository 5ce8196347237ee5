; Surface loads/stores/queries through NVVM intrinsics on surface-object handles.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.suld.2d.i32.trap(i64, i32, i32)
declare void @llvm.nvvm.sust.b.2d.i32.trap(i64, i32, i32, i32)
declare { i16, i16, i16, i16 } @llvm.nvvm.suld.1d.v4i8.clamp(i64, i32)
declare void @llvm.nvvm.sust.b.1d.v4i8.clamp(i64, i32, i16, i16, i16, i16)
declare { i32, i32 } @llvm.nvvm.suld.3d.v2i32.zero(i64, i32, i32, i32)
declare void @llvm.nvvm.sust.b.3d.v2i32.zero(i64, i32, i32, i32, i32, i32)
declare i64 @llvm.nvvm.suld.1d.array.i64.trap(i64, i32, i32)
declare void @llvm.nvvm.sust.b.1d.array.i64.trap(i64, i32, i32, i64)
declare { i32, i32, i32, i32 } @llvm.nvvm.suld.2d.array.v4i32.trap(i64, i32, i32, i32)
declare void @llvm.nvvm.sust.b.2d.array.v4i32.trap(i64, i32, i32, i32, i32, i32, i32, i32)
declare i16 @llvm.nvvm.suld.2d.i16.clamp(i64, i32, i32)
declare void @llvm.nvvm.sust.p.2d.i32.trap(i64, i32, i32, i32)
declare void @llvm.nvvm.sust.p.1d.v4i32.trap(i64, i32, i32, i32, i32, i32)
declare void @llvm.nvvm.sust.p.3d.i32.trap(i64, i32, i32, i32, i32)
declare i32 @llvm.nvvm.suq.width(i64)
declare i32 @llvm.nvvm.suq.height(i64)
declare i32 @llvm.nvvm.suq.depth(i64)
declare i32 @llvm.nvvm.suq.channel.order(i64)
declare i32 @llvm.nvvm.suq.channel.data.type(i64)
declare i32 @llvm.nvvm.suq.array.size(i64)
declare i1 @llvm.nvvm.istypep.surface(i64)

; out(x, y) = in(x, y) + 1, bounds checked against suq.width/height
define void @surf_copy_2d(i64 %in, i64 %out) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bx, %nx
  %x = add i32 %m, %tx
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %w = call i32 @llvm.nvvm.suq.width(i64 %in)
  %h = call i32 @llvm.nvvm.suq.height(i64 %in)
  %okx = icmp slt i32 %x, %w
  %oky = icmp slt i32 %y, %h
  %ok = and i1 %okx, %oky
  br i1 %ok, label %body, label %exit
body:
  %xb = shl i32 %x, 2
  %v = call i32 @llvm.nvvm.suld.2d.i32.trap(i64 %in, i32 %xb, i32 %y)
  %v1 = add i32 %v, 1
  call void @llvm.nvvm.sust.b.2d.i32.trap(i64 %out, i32 %xb, i32 %y, i32 %v1)
  br label %exit
exit:
  ret void
}

define void @surf_bytes_1d(i64 %s) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %xb = shl i32 %tx, 2
  %v = call { i16, i16, i16, i16 } @llvm.nvvm.suld.1d.v4i8.clamp(i64 %s, i32 %xb)
  %a = extractvalue { i16, i16, i16, i16 } %v, 0
  %b = extractvalue { i16, i16, i16, i16 } %v, 1
  %c = extractvalue { i16, i16, i16, i16 } %v, 2
  %d = extractvalue { i16, i16, i16, i16 } %v, 3
  call void @llvm.nvvm.sust.b.1d.v4i8.clamp(i64 %s, i32 %xb, i16 %d, i16 %c, i16 %b, i16 %a)
  ret void
}

define void @surf_3d_and_arrays(i64 %vol, i64 %arr1, i64 %arr2, i32 %layer) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %x8 = shl i32 %tx, 3
  %p = call { i32, i32 } @llvm.nvvm.suld.3d.v2i32.zero(i64 %vol, i32 %x8, i32 %ty, i32 %bz)
  %p0 = extractvalue { i32, i32 } %p, 0
  %p1 = extractvalue { i32, i32 } %p, 1
  call void @llvm.nvvm.sust.b.3d.v2i32.zero(i64 %vol, i32 %x8, i32 %ty, i32 %bz, i32 %p1, i32 %p0)
  %l = call i64 @llvm.nvvm.suld.1d.array.i64.trap(i64 %arr1, i32 %layer, i32 %x8)
  %l2 = mul i64 %l, 3
  call void @llvm.nvvm.sust.b.1d.array.i64.trap(i64 %arr1, i32 %layer, i32 %x8, i64 %l2)
  %x16 = shl i32 %tx, 4
  %q = call { i32, i32, i32, i32 } @llvm.nvvm.suld.2d.array.v4i32.trap(i64 %arr2, i32 %layer, i32 %x16, i32 %ty)
  %q0 = extractvalue { i32, i32, i32, i32 } %q, 0
  %q1 = extractvalue { i32, i32, i32, i32 } %q, 1
  %q2 = extractvalue { i32, i32, i32, i32 } %q, 2
  %q3 = extractvalue { i32, i32, i32, i32 } %q, 3
  call void @llvm.nvvm.sust.b.2d.array.v4i32.trap(i64 %arr2, i32 %layer, i32 %x16, i32 %ty, i32 %q3, i32 %q2, i32 %q1, i32 %q0)
  ret void
}

define void @surf_formatted(i64 %s, i64 %s3, float %f) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x2 = shl i32 %tx, 1
  %v = call i16 @llvm.nvvm.suld.2d.i16.clamp(i64 %s, i32 %x2, i32 0)
  %vz = zext i16 %v to i32
  call void @llvm.nvvm.sust.p.2d.i32.trap(i64 %s, i32 %tx, i32 1, i32 %vz)
  %fi = bitcast float %f to i32
  call void @llvm.nvvm.sust.p.1d.v4i32.trap(i64 %s, i32 %tx, i32 %fi, i32 %fi, i32 %fi, i32 1065353216)
  call void @llvm.nvvm.sust.p.3d.i32.trap(i64 %s3, i32 %tx, i32 0, i32 0, i32 %fi)
  ret void
}

define void @surf_query(i64 %s, i32* %out) {
  %w = call i32 @llvm.nvvm.suq.width(i64 %s)
  %h = call i32 @llvm.nvvm.suq.height(i64 %s)
  %d = call i32 @llvm.nvvm.suq.depth(i64 %s)
  %o = call i32 @llvm.nvvm.suq.channel.order(i64 %s)
  %t = call i32 @llvm.nvvm.suq.channel.data.type(i64 %s)
  %a = call i32 @llvm.nvvm.suq.array.size(i64 %s)
  %is = call i1 @llvm.nvvm.istypep.surface(i64 %s)
  %isz = zext i1 %is to i32
  %g = addrspacecast i32* %out to i32 addrspace(1)*
  store i32 %w, i32 addrspace(1)* %g
  %g1 = getelementptr i32, i32 addrspace(1)* %g, i64 1
  store i32 %h, i32 addrspace(1)* %g1
  %g2 = getelementptr i32, i32 addrspace(1)* %g, i64 2
  store i32 %d, i32 addrspace(1)* %g2
  %g3 = getelementptr i32, i32 addrspace(1)* %g, i64 3
  store i32 %o, i32 addrspace(1)* %g3
  %g4 = getelementptr i32, i32 addrspace(1)* %g, i64 4
  store i32 %t, i32 addrspace(1)* %g4
  %g5 = getelementptr i32, i32 addrspace(1)* %g, i64 5
  store i32 %a, i32 addrspace(1)* %g5
  %g6 = getelementptr i32, i32 addrspace(1)* %g, i64 6
  store i32 %isz, i32 addrspace(1)* %g6
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{void (i64, i64)* @surf_copy_2d, !"kernel", i32 1}
!1 = !{void (i64)* @surf_bytes_1d, !"kernel", i32 1}
!2 = !{void (i64, i64, i64, i32)* @surf_3d_and_arrays, !"kernel", i32 1}
!3 = !{void (i64, i64, float)* @surf_formatted, !"kernel", i32 1}
!4 = !{void (i64, i32*)* @surf_query, !"kernel", i32 1}
