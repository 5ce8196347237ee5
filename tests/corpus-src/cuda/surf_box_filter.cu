// 3x3 box filter: surface -> shared-memory tile -> surface.
#include <cuda_runtime.h>

#define TILE 16

__global__ void __launch_bounds__(TILE * TILE)
box3x3(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    __shared__ float tile[TILE + 2][TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    tile[ty + 1][tx + 1] = surf2Dread<float>(in, x * 4, y, cudaBoundaryModeClamp);
    if (tx == 0)        tile[ty + 1][0]        = surf2Dread<float>(in, (x - 1) * 4, y, cudaBoundaryModeClamp);
    if (tx == TILE - 1) tile[ty + 1][TILE + 1] = surf2Dread<float>(in, (x + 1) * 4, y, cudaBoundaryModeClamp);
    if (ty == 0)        tile[0][tx + 1]        = surf2Dread<float>(in, x * 4, y - 1, cudaBoundaryModeClamp);
    if (ty == TILE - 1) tile[TILE + 1][tx + 1] = surf2Dread<float>(in, x * 4, y + 1, cudaBoundaryModeClamp);
    __syncthreads();
    float s = 0.f;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
        for (int dx = 0; dx < 3; ++dx)
            s += tile[ty + dy][tx + dx];
    if (x < w && y < h)
        surf2Dwrite(s * (1.0f / 9.0f), out, x * 4, y);
}
