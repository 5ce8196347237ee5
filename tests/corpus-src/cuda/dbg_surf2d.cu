// One small 2D surface kernel, meant for device-debug (-G) builds.
#include <cuda_runtime.h>

__global__ void dbg_invert(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        int v = surf2Dread<int>(s, x * 4, y, cudaBoundaryModeClamp);
        surf2Dwrite(~v, s, x * 4, y, cudaBoundaryModeTrap);
    }
}
