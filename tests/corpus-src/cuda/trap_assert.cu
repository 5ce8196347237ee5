// __trap, assert (calls .noreturn __assertfail), __brkpt, unreachable.
#include <cassert>
#include <cuda_runtime.h>

__global__ void checked_div(const int *a, const int *b, int *c)
{
    int i = threadIdx.x;
    assert(b[i] != 0);
    c[i] = a[i] / b[i];
}

__global__ void trap_on_bad(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) __trap();
    if (a[i] != a[i]) __brkpt();
    b[i] = a[i];
}

__device__ __noinline__ int pick(int k)
{
    switch (k) {
    case 0: return 10;
    case 1: return 20;
    case 2: return 40;
    }
    __builtin_unreachable();
}

__global__ void unreachable_kernel(int *o) { o[threadIdx.x] = pick(threadIdx.x % 3); }
