// Miscellaneous inline PTX: special registers, prmt, bfe/bfi, vote, membar, predicates.
#include <cuda_runtime.h>

__global__ void special_regs(unsigned *out)
{
    unsigned lane, warp, smid, nsm, clk, lt;
    unsigned long long gt;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(clk));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    out[threadIdx.x] = lane + warp + smid + nsm + clk + lt + (unsigned)gt;
}

__global__ void bit_ops(unsigned *d)
{
    unsigned a = d[threadIdx.x], r1, r2, r3;
    asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r1) : "r"(a));
    asm("bfi.b32 %0, %1, %2, 8, 4;" : "=r"(r2) : "r"(a), "r"(r1));
    asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(r3) : "r"(a), "r"(r2));
    asm("{\n\t.reg .pred p;\n\tsetp.gt.u32 p, %1, 100;\n\tselp.u32 %0, %1, 100, p;\n\t}" : "=r"(r1) : "r"(r3));
    d[threadIdx.x] = r1 ^ r2;
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

__global__ void ld_st_asm(int *p)
{
    int v;
    asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(v) : "l"(p));
    asm volatile("st.global.wt.s32 [%0+4], %1;" :: "l"(p), "r"(v + 1) : "memory");
    asm volatile("st.global.v2.s32 [%0+8], {%1, %2};" :: "l"(p), "r"(v), "r"(v * 2) : "memory");
    asm volatile("red.global.add.u32 [%0+16], %1;" :: "l"(p), "r"(v) : "memory");
    asm volatile("prefetch.global.L2 [%0];" :: "l"(p + 64));
}
