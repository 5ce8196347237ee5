// Arch-specific (sm_90a) instructions through inline PTX; also a plain sm_90 path.
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256) warpgroup_regs(float *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (threadIdx.x < 128)
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    else
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#endif
    out[threadIdx.x] = (float)threadIdx.x;
}

__global__ void mbarrier_demo(int *out)
{
#if __CUDA_ARCH__ >= 900
    __shared__ unsigned long long bar;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"((int)blockDim.x) : "memory");
    __syncthreads();
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(addr) : "memory");
    int done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\tselp.s32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(addr), "l"(state) : "memory");
    }
    out[threadIdx.x] = done;
#endif
}
