// Histogram of an 8-bit image read through a surface; shared + global atomics.
#include <cuda_runtime.h>

__global__ void histogram256(cudaSurfaceObject_t img, int w, int h, unsigned *hist)
{
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (int y = blockIdx.y; y < h; y += gridDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += blockDim.x * gridDim.x) {
            unsigned char v = surf2Dread<unsigned char>(img, x, y);
            atomicAdd(&local[v], 1u);
        }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i]) atomicAdd(&hist[i], local[i]);
}
