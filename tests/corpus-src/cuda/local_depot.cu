// Dynamically indexed local arrays -> .local depot and stack frames.
#include <cuda_runtime.h>

__device__ __noinline__ int sum_array(const int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; ++i) s += a[i];
    return s;
}

__global__ void local_array(const int *idx, int *out)
{
    int buf[32];
    for (int i = 0; i < 32; ++i) buf[i] = idx[i] * threadIdx.x;
    buf[idx[threadIdx.x] & 31] = -1;
    out[threadIdx.x] = buf[idx[threadIdx.x + 1] & 31] + sum_array(buf, idx[0] & 31);
}

struct Big { double d[6]; int k; };

__device__ __noinline__ Big make_big(int k)
{
    Big b;
    for (int i = 0; i < 6; ++i) b.d[i] = k * i;
    b.k = k;
    return b;
}

__global__ void struct_by_value(double *out, int k)
{
    Big b = make_big(k + threadIdx.x);
    out[threadIdx.x] = b.d[k % 6] + b.k;
}
