; LLVM >= 20 style (opaque pointers, ptx_kernel calling convention, nvvm.* function
; attributes): .maxntid/.reqntid/.minnctapersm/.maxnreg, cluster directives,
; grid_constant parameters.  Only for llc-22.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Params = type { i32, float, [4 x i32] }

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare ptr addrspace(3) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)

@tile = internal addrspace(3) global [128 x i32] undef, align 4

define ptx_kernel void @bounded(ptr %out) "nvvm.maxntid"="128,1,1" "nvvm.minctasm"="4" "nvvm.maxnreg"="48" {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %ti
  store i32 %t, ptr %p
  ret void
}

define ptx_kernel void @exact(ptr %out) "nvvm.reqntid"="32,2,2" {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %p = getelementptr float, ptr %out, i64 %ti
  store float 1.0, ptr %p
  ret void
}

define ptx_kernel void @clustered(ptr %out) "nvvm.cluster_dim"="2,1,1" "nvvm.maxntid"="128" {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
  %ti = zext i32 %t to i64
  %sp = getelementptr [128 x i32], ptr addrspace(3) @tile, i64 0, i64 %ti
  store i32 %rank, ptr addrspace(3) %sp
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  %peer = xor i32 %rank, 1
  %rp = call ptr addrspace(3) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %sp, i32 %peer)
  %v = load i32, ptr addrspace(3) %rp
  %s = add i32 %v, %n
  %p = getelementptr i32, ptr %out, i64 %ti
  store i32 %s, ptr %p
  ret void
}

define ptx_kernel void @rank_limited(ptr %out) "nvvm.maxclusterrank"="8" "nvvm.reqntid"="64" {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %b, ptr %out
  ret void
}

define ptx_kernel void @by_value(ptr byval(%struct.Params) align 4 "nvvm.grid_constant" %prm, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = and i32 %t, 3
  %tx = zext i32 %ti to i64
  %q = getelementptr %struct.Params, ptr %prm, i64 0, i32 2, i64 %tx
  %v = load i32, ptr %q
  %sp = getelementptr %struct.Params, ptr %prm, i64 0, i32 1
  %s = load float, ptr %sp
  %si = fptosi float %s to i32
  %r = add i32 %v, %si
  %o = getelementptr i32, ptr %out, i64 %tx
  store i32 %r, ptr %o
  ret void
}

define ptx_kernel void @blocks_are_clusters(ptr %out) "nvvm.blocksareclusters" "nvvm.reqntid"="64" "nvvm.cluster_dim"="4,1,1" {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  store i32 %b, ptr %out
  ret void
}
