// Templated surface kernels instantiated for many element types.
#include <cuda_runtime.h>

template <typename T>
__global__ void fill2d(cudaSurfaceObject_t s, T v, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(v, s, x * (int)sizeof(T), y);
}

template <typename T>
__global__ void swap_rows(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x < w && y < h / 2) {
        T a = surf2Dread<T>(s, x * (int)sizeof(T), y);
        T b = surf2Dread<T>(s, x * (int)sizeof(T), h - 1 - y);
        surf2Dwrite(b, s, x * (int)sizeof(T), y);
        surf2Dwrite(a, s, x * (int)sizeof(T), h - 1 - y);
    }
}

template __global__ void fill2d<char>(cudaSurfaceObject_t, char, int, int);
template __global__ void fill2d<short>(cudaSurfaceObject_t, short, int, int);
template __global__ void fill2d<int>(cudaSurfaceObject_t, int, int, int);
template __global__ void fill2d<float>(cudaSurfaceObject_t, float, int, int);
template __global__ void fill2d<long long>(cudaSurfaceObject_t, long long, int, int);
template __global__ void fill2d<float4>(cudaSurfaceObject_t, float4, int, int);
template __global__ void fill2d<int4>(cudaSurfaceObject_t, int4, int, int);
template __global__ void swap_rows<uchar4>(cudaSurfaceObject_t, int, int);
template __global__ void swap_rows<short4>(cudaSurfaceObject_t, int, int);
template __global__ void swap_rows<float2>(cudaSurfaceObject_t, int, int);
template __global__ void swap_rows<ulonglong2>(cudaSurfaceObject_t, int, int);
