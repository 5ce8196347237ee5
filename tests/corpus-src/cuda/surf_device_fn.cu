// Surface access inside noinline device functions (calls with surface-object params).
#include <cuda_runtime.h>

__device__ __noinline__ float load_px(cudaSurfaceObject_t s, int x, int y)
{
    return surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
}

__device__ __noinline__ void store_px(cudaSurfaceObject_t s, int x, int y, float v)
{
    surf2Dwrite(v, s, x * 4, y, cudaBoundaryModeZero);
}

__device__ __noinline__ float lerp3(float a, float b, float t) { return a + t * (b - a); }

__global__ void upsample2x(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 2 * w || y >= 2 * h) return;
    float fx = x * 0.5f, fy = y * 0.5f;
    int ix = (int)fx, iy = (int)fy;
    float a = load_px(src, ix, iy), b = load_px(src, ix + 1, iy);
    float c = load_px(src, ix, iy + 1), d = load_px(src, ix + 1, iy + 1);
    float top = lerp3(a, b, fx - ix), bot = lerp3(c, d, fx - ix);
    store_px(dst, x, y, lerp3(top, bot, fy - iy));
}
