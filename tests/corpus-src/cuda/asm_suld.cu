// Surface loads through inline PTX: vectors, cache operators, 3D/array geometries.
#include <cuda_runtime.h>

__global__ void suld_3d_v4_b8(cudaSurfaceObject_t s, uchar4 *out)
{
    int x = threadIdx.x * 4, y = threadIdx.y, z = blockIdx.x;
    unsigned short a, b, c, d;
    asm volatile("suld.b.3d.v4.b8.trap {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                 : "=h"(a), "=h"(b), "=h"(c), "=h"(d) : "l"(s), "r"(x), "r"(y), "r"(z));
    out[(z * blockDim.y + y) * blockDim.x + threadIdx.x] =
        make_uchar4((unsigned char)a, (unsigned char)b, (unsigned char)c, (unsigned char)d);
}

__global__ void suld_cache_ops(cudaSurfaceObject_t s, unsigned *out)
{
    int x = threadIdx.x * 4;
    unsigned a, b, c, d;
    asm volatile("suld.b.1d.ca.b32.trap %0, [%1, {%2}];" : "=r"(a) : "l"(s), "r"(x));
    asm volatile("suld.b.1d.cg.b32.clamp %0, [%1, {%2}];" : "=r"(b) : "l"(s), "r"(x));
    asm volatile("suld.b.1d.cs.b32.zero %0, [%1, {%2}];" : "=r"(c) : "l"(s), "r"(x));
    asm volatile("suld.b.1d.cv.b32.trap %0, [%1, {%2}];" : "=r"(d) : "l"(s), "r"(x));
    out[threadIdx.x] = a + b + c + d;
}

__global__ void suld_arrays(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, float *out)
{
    int x = threadIdx.x * 4, y = threadIdx.y, layer = blockIdx.x;
    float a, b0, b1;
    asm volatile("suld.b.a1d.b32.trap %0, [%1, {%2, %3}];" : "=f"(a) : "l"(s1), "r"(layer), "r"(x));
    asm volatile("suld.b.a2d.v2.b32.trap {%0, %1}, [%2, {%3, %4, %5, %5}];"
                 : "=f"(b0), "=f"(b1) : "l"(s2), "r"(layer), "r"(x), "r"(y));
    out[threadIdx.x] = a + b0 * b1;
}

__global__ void suld_b64_v2(cudaSurfaceObject_t s, double2 *out)
{
    int x = threadIdx.x * 16;
    double a, b;
    asm volatile("suld.b.2d.v2.b64.trap {%0, %1}, [%2, {%3, %3}];" : "=d"(a), "=d"(b) : "l"(s), "r"(x));
    out[threadIdx.x] = make_double2(a, b);
}
