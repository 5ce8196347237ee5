// Device printf with many argument types.
#include <cstdio>

__global__ void hello(int n, float f, double d, const char *tag)
{
    if (threadIdx.x == 0)
        printf("block %d of %d: n=%d f=%f d=%g tag=%s\n", blockIdx.x, gridDim.x, n, f, d, tag);
    if (threadIdx.x == 1)
        printf("ptr %p ll %lld u %u c %c\n", (void *)tag, (long long)n * 1000000000ll, (unsigned)n, 'x');
}

__device__ __noinline__ void report(const char *what, int v) { printf("[%s] %d\n", what, v); }

__global__ void checked(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] < 0) report("negative", v[i]);
}
