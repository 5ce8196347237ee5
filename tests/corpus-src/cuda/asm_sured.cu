// Surface reductions through inline PTX (nvcc never emits sured itself).
#include <cuda_runtime.h>

__global__ void sured_add_1d(cudaSurfaceObject_t s, unsigned v)
{
    int x = threadIdx.x * 4;
    asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" :: "l"(s), "r"(x), "r"(v) : "memory");
}

__global__ void sured_min_max_2d(cudaSurfaceObject_t s, int v)
{
    int x = threadIdx.x * 4, y = blockIdx.x;
    asm volatile("sured.b.min.2d.s32.clamp [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(y), "r"(v) : "memory");
    asm volatile("sured.b.max.2d.s32.zero [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(y + 1), "r"(-v) : "memory");
}

__global__ void sured_logic_3d(cudaSurfaceObject_t s, unsigned m)
{
    int x = threadIdx.x * 4, y = threadIdx.y, z = blockIdx.x;
    asm volatile("sured.b.and.3d.b32.trap [%0, {%1, %2, %3, %3}], %4;" :: "l"(s), "r"(x), "r"(y), "r"(z), "r"(m) : "memory");
    asm volatile("sured.b.or.3d.b32.trap [%0, {%1, %2, %3, %3}], %4;" :: "l"(s), "r"(x), "r"(y), "r"(z), "r"(~m) : "memory");
}

__global__ void sured_64(cudaSurfaceObject_t s, unsigned long long a, long long b)
{
    int x = threadIdx.x * 8;
    asm volatile("sured.b.add.1d.u64.trap [%0, {%1}], %2;" :: "l"(s), "r"(x), "l"(a) : "memory");
    asm volatile("sured.b.min.1d.s64.clamp [%0, {%1}], %2;" :: "l"(s), "r"(x), "l"(b) : "memory");
}

__global__ void sured_p(cudaSurfaceObject_t s, unsigned v)
{
    int x = threadIdx.x;
    asm volatile("sured.p.add.1d.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(x), "r"(v) : "memory");
    asm volatile("sured.p.max.2d.b32.trap [%0, {%1, %1}], %2;" :: "l"(s), "r"(x), "r"(v) : "memory");
}
