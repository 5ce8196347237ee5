// 2D surface copy kernels (surface objects), vector element types.
#include <cuda_runtime.h>

__global__ void copy_float4(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float4 v;
        surf2Dread(&v, in, x * (int)sizeof(float4), y);
        v.x += 1.0f; v.w = 1.0f;
        surf2Dwrite(v, out, x * (int)sizeof(float4), y);
    }
}

__global__ void copy_uchar4_gray(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 p = surf2Dread<uchar4>(in, x * 4, y);
    unsigned char g = (unsigned char)((p.x * 77 + p.y * 150 + p.z * 29) >> 8);
    surf2Dwrite(make_uchar4(g, g, g, p.w), out, x * 4, y);
}

__global__ void copy_int2(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        int2 v = surf2Dread<int2>(in, x * 8, y);
        surf2Dwrite(make_int2(v.y, v.x), out, x * 8, h - 1 - y);
    }
}

__global__ void copy_wide(cudaSurfaceObject_t d, cudaSurfaceObject_t l, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < w) {
        double dv = __longlong_as_double(surf2Dread<long long>(d, x * 8, 0));
        long long lv = surf2Dread<long long>(l, x * 8, 0);
        surf2Dwrite(__double_as_longlong(dv * 0.5), d, x * 8, 1);
        surf2Dwrite(lv << 2, l, x * 8, 1);
    }
}
