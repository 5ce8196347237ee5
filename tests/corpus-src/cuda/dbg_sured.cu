// Inline-PTX surface reduction + query in a small kernel, for -G builds.
#include <cuda_runtime.h>

__device__ __noinline__ int surf_width(cudaSurfaceObject_t s)
{
    int w;
    asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s));
    return w;
}

__global__ void dbg_count(cudaSurfaceObject_t bins, const unsigned char *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && keys[i] < surf_width(bins))
        asm volatile("sured.b.add.1d.u32.clamp [%0, {%1}], %2;" :: "l"(bins), "r"(keys[i] * 4), "r"(1) : "memory");
}
