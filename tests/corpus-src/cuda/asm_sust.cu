// Surface stores through inline PTX: sust.b / sust.p, vectors, cache operators, arrays.
#include <cuda_runtime.h>

__global__ void sust_p_2d_v4(cudaSurfaceObject_t s, float4 c)
{
    int x = threadIdx.x, y = blockIdx.x;
    asm volatile("sust.p.2d.v4.b32.trap [%0, {%1, %2}], {%3, %4, %5, %6};"
                 :: "l"(s), "r"(x), "r"(y), "f"(c.x), "f"(c.y), "f"(c.z), "f"(c.w) : "memory");
}

__global__ void sust_b_3d_v4_b8(cudaSurfaceObject_t s, unsigned short a, unsigned short b)
{
    int x = threadIdx.x * 4, y = threadIdx.y, z = blockIdx.x;
    asm volatile("sust.b.3d.v4.b8.clamp [%0, {%1, %2, %3, %3}], {%4, %5, %4, %5};"
                 :: "l"(s), "r"(x), "r"(y), "r"(z), "h"(a), "h"(b) : "memory");
}

__global__ void sust_cache_ops(cudaSurfaceObject_t s, unsigned v)
{
    int x = threadIdx.x * 4;
    asm volatile("sust.b.1d.wb.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(x), "r"(v) : "memory");
    asm volatile("sust.b.1d.cg.b32.trap [%0, {%1}], %2;" :: "l"(s), "r"(x + 4), "r"(v) : "memory");
    asm volatile("sust.b.1d.cs.b32.zero [%0, {%1}], %2;" :: "l"(s), "r"(x + 8), "r"(v) : "memory");
    asm volatile("sust.b.1d.wt.b32.clamp [%0, {%1}], %2;" :: "l"(s), "r"(x + 12), "r"(v) : "memory");
}

__global__ void sust_arrays(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, unsigned long long v)
{
    int x = threadIdx.x * 8, y = threadIdx.y, layer = blockIdx.x;
    asm volatile("sust.b.a1d.b64.trap [%0, {%1, %2}], %3;" :: "l"(s1), "r"(layer), "r"(x), "l"(v) : "memory");
    asm volatile("sust.b.a2d.v2.b32.trap [%0, {%1, %2, %3, %3}], {%4, %5};"
                 :: "l"(s2), "r"(layer), "r"(x), "r"(y), "r"((unsigned)v), "r"((unsigned)(v >> 32)) : "memory");
}

__global__ void sust_b16_v2(cudaSurfaceObject_t s, short a, short b)
{
    int x = threadIdx.x * 4;
    asm volatile("sust.b.2d.v2.b16.trap [%0, {%1, %1}], {%2, %3};" :: "l"(s), "r"(x), "h"(a), "h"(b) : "memory");
}
