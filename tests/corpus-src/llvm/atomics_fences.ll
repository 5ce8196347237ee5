; atomicrmw / cmpxchg in global, shared and generic spaces; fences; barriers.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s_counts = internal addrspace(3) global [32 x i32] undef, align 4
@s_flag = internal addrspace(3) global i64 undef, align 8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.barrier0.popc(i32)
declare i32 @llvm.nvvm.barrier0.and(i32)
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.sys()
declare i32 @llvm.nvvm.atomic.load.inc.32.p1i32(i32 addrspace(1)*, i32)
declare i32 @llvm.nvvm.atomic.load.dec.32.p1i32(i32 addrspace(1)*, i32)

define void @atomics(i32 addrspace(1)* %g, i64 addrspace(1)* %g64, float addrspace(1)* %gf, i32* %gen, double* %gd) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = atomicrmw add i32 addrspace(1)* %g, i32 %t seq_cst
  %g1 = getelementptr i32, i32 addrspace(1)* %g, i64 1
  %b = atomicrmw xchg i32 addrspace(1)* %g1, i32 %a monotonic
  %g2 = getelementptr i32, i32 addrspace(1)* %g, i64 2
  %c = atomicrmw max i32 addrspace(1)* %g2, i32 %b monotonic
  %g3 = getelementptr i32, i32 addrspace(1)* %g, i64 3
  %d = atomicrmw umin i32 addrspace(1)* %g3, i32 %c monotonic
  %g4 = getelementptr i32, i32 addrspace(1)* %g, i64 4
  %e = atomicrmw and i32 addrspace(1)* %g4, i32 %d monotonic
  %f = atomicrmw or i32* %gen, i32 %e monotonic
  %gen1 = getelementptr i32, i32* %gen, i64 1
  %h = atomicrmw xor i32* %gen1, i32 %f monotonic
  %i = atomicrmw sub i32* %gen1, i32 %h monotonic
  %w = atomicrmw add i64 addrspace(1)* %g64, i64 1 monotonic
  %g64b = getelementptr i64, i64 addrspace(1)* %g64, i64 1
  %x = atomicrmw umax i64 addrspace(1)* %g64b, i64 %w monotonic
  %fl = atomicrmw fadd float addrspace(1)* %gf, float 1.0 monotonic
  %db = atomicrmw fadd double* %gd, double 2.0 monotonic
  %cx = cmpxchg i32 addrspace(1)* %g, i32 %i, i32 %t seq_cst seq_cst
  %cxv = extractvalue { i32, i1 } %cx, 0
  %cx64 = cmpxchg i64 addrspace(1)* %g64, i64 %x, i64 0 monotonic monotonic
  %inc = call i32 @llvm.nvvm.atomic.load.inc.32.p1i32(i32 addrspace(1)* %g4, i32 100)
  %dec = call i32 @llvm.nvvm.atomic.load.dec.32.p1i32(i32 addrspace(1)* %g4, i32 100)
  %ti = and i32 %t, 31
  %ti64 = zext i32 %ti to i64
  %sp = getelementptr [32 x i32], [32 x i32] addrspace(3)* @s_counts, i64 0, i64 %ti64
  %sa = atomicrmw add i32 addrspace(3)* %sp, i32 1 monotonic
  %sx = cmpxchg i64 addrspace(3)* @s_flag, i64 0, i64 1 acquire monotonic
  call void @llvm.nvvm.membar.gl()
  call void @llvm.nvvm.membar.cta()
  call void @llvm.nvvm.membar.sys()
  call void @llvm.nvvm.barrier0()
  %pc = call i32 @llvm.nvvm.barrier0.popc(i32 %sa)
  %an = call i32 @llvm.nvvm.barrier0.and(i32 %pc)
  %s1 = add i32 %cxv, %inc
  %s2 = add i32 %s1, %dec
  %s3 = add i32 %s2, %an
  %flf = fptosi float %fl to i32
  %s4 = add i32 %s3, %flf
  store volatile i32 %s4, i32 addrspace(1)* %g4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i64 addrspace(1)*, float addrspace(1)*, i32*, double*)* @atomics, !"kernel", i32 1}
