// Surface boundary modes: trap, clamp, zero.
#include <cuda_runtime.h>

__global__ void boundary_trap(cudaSurfaceObject_t s, int off)
{
    int x = threadIdx.x + off;
    int v = surf2Dread<int>(s, x * 4, 0, cudaBoundaryModeTrap);
    surf2Dwrite(v, s, x * 4, 1, cudaBoundaryModeTrap);
}

__global__ void boundary_clamp(cudaSurfaceObject_t s, int off)
{
    int x = threadIdx.x + off;
    float v = surf2Dread<float>(s, x * 4, 0, cudaBoundaryModeClamp);
    surf2Dwrite(v, s, x * 4, 1, cudaBoundaryModeClamp);
}

__global__ void boundary_zero(cudaSurfaceObject_t s, int off)
{
    int x = threadIdx.x + off;
    uchar4 v = surf2Dread<uchar4>(s, x * 4, 0, cudaBoundaryModeZero);
    surf2Dwrite(v, s, x * 4, 1, cudaBoundaryModeZero);
}

__global__ void boundary_1d_mixed(cudaSurfaceObject_t s, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x - 4;
    ushort4 a = surf1Dread<ushort4>(s, x * 8, cudaBoundaryModeZero);
    ushort4 b = surf1Dread<ushort4>(s, (x + 1) * 8, cudaBoundaryModeClamp);
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
    if (x < n) surf1Dwrite(a, s, x * 8, cudaBoundaryModeClamp);
}
