// Calls to external device functions/variables (needs -rdc=true).
#include <cuda_runtime.h>

extern __device__ int ext_table[64];
extern __device__ float ext_scale(float x, int k);
extern __device__ void ext_log(int code);

__device__ int visible_counter;
__device__ __noinline__ int local_helper(int x) { return x * 7 + ext_table[x & 63]; }

__global__ void uses_externs(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) { ext_log(i); return; }
    data[i] = ext_scale(data[i], local_helper(i));
    atomicAdd(&visible_counter, 1);
}

__device__ float scaled_sum(const float *v, int n)
{
    float s = 0;
    for (int i = 0; i < n; ++i) s += ext_scale(v[i], i);
    return s;
}
