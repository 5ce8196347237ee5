// 3D surface kernels.
#include <cuda_runtime.h>

__global__ void surf3d_scale(cudaSurfaceObject_t vol, int w, int h, int d, float k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d) {
        float v = surf3Dread<float>(vol, x * 4, y, z);
        surf3Dwrite(v * k, vol, x * 4, y, z);
    }
}

__global__ void surf3d_short2(cudaSurfaceObject_t vol, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    int z = blockIdx.z;
    if (x < w && y < h && z < d) {
        short2 v;
        surf3Dread(&v, vol, x * 4, y, z, cudaBoundaryModeClamp);
        surf3Dwrite(make_short2(v.y, v.x), vol, x * 4, y, z, cudaBoundaryModeZero);
    }
}

__global__ void surf3d_gradient(cudaSurfaceObject_t in, float *out, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y, z = blockIdx.z;
    if (x >= w) return;
    float a = surf3Dread<float>(in, (x + 1) * 4, y, z, cudaBoundaryModeZero);
    float b = surf3Dread<float>(in, (x - 1) * 4, y, z, cudaBoundaryModeZero);
    out[(z * h + y) * w + x] = 0.5f * (a - b);
}
