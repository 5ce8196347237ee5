// Small 3D and layered surface kernel for device-debug (-G) builds.
#include <cuda_runtime.h>

__global__ void dbg_vol_to_layers(cudaSurfaceObject_t vol, cudaSurfaceObject_t layers, int depth)
{
    int x = threadIdx.x, y = threadIdx.y;
    for (int z = 0; z < depth; ++z) {
        float v = surf3Dread<float>(vol, x * 4, y, z, cudaBoundaryModeZero);
        surf2DLayeredwrite(v, layers, x * 4, y, z, cudaBoundaryModeZero);
    }
}
