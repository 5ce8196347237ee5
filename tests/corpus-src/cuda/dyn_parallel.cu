// Dynamic parallelism: device-side kernel launch (needs -rdc=true, extern calls).
#include <cuda_runtime.h>

__global__ void child(int *data, int base)
{
    data[base + threadIdx.x] += 1;
}

__global__ void parent(int *data, int n)
{
    if (threadIdx.x == 0) {
        int chunks = n / 32;
        for (int c = 0; c < chunks; ++c)
            child<<<1, 32>>>(data, c * 32);
    }
}

__global__ void parent_stream(int *data)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    child<<<1, 32, 0, s>>>(data, threadIdx.x * 32);
    cudaStreamDestroy(s);
}
