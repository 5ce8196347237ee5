// Layered and cubemap surfaces.
#include <cuda_runtime.h>

__global__ void layered1d(cudaSurfaceObject_t s, int w, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int l = blockIdx.y;
    if (x < w && l < layers) {
        int v = surf1DLayeredread<int>(s, x * 4, l);
        surf1DLayeredwrite(v + l, s, x * 4, l);
    }
}

__global__ void layered2d(cudaSurfaceObject_t s, int w, int h, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    for (int l = 0; l < layers; ++l) {
        float2 v = surf2DLayeredread<float2>(s, x * 8, y, l);
        surf2DLayeredwrite(make_float2(v.x + v.y, v.x - v.y), s, x * 8, y, l);
    }
}

__global__ void cubemap(cudaSurfaceObject_t s, int w)
{
    int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
    if (x < w && y < w) {
        unsigned v = surfCubemapread<unsigned>(s, x * 4, y, face);
        surfCubemapwrite(v | (face << 24), s, x * 4, y, face);
    }
}

__global__ void cubemap_layered(cudaSurfaceObject_t s, int w, int layer)
{
    int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
    if (x < w && y < w) {
        uchar2 v = surfCubemapLayeredread<uchar2>(s, x * 2, y, layer * 6 + face);
        surfCubemapLayeredwrite(make_uchar2(v.y, v.x), s, x * 2, y, layer * 6 + face);
    }
}
