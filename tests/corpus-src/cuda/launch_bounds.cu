// Launch bounds, max registers, required block sizes.
#include <cuda_runtime.h>

__global__ void __launch_bounds__(128) lb_max(float *a) { a[threadIdx.x] *= 2.f; }

__global__ void __launch_bounds__(256, 4) lb_min_blocks(float *a, const float *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = a[i] * b[i] + b[i + 1];
}

__global__ void __maxnreg__(32) maxnreg_kernel(double *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = sqrt(a[i]) + exp(a[i]);
}

__global__ void __launch_bounds__(64, 2) lb_shared(int *a)
{
    __shared__ int s[64];
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[63 - threadIdx.x];
}
