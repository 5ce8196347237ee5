// Warp-level primitives: shuffles, votes, match, reduce.
#include <cuda_runtime.h>

__global__ void warp_reduce(const float *in, float *out)
{
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

__global__ void warp_shuffles(int *d, double *dd)
{
    int lane = threadIdx.x & 31;
    int a = d[threadIdx.x];
    a += __shfl_sync(0xffffffffu, a, 0);
    a += __shfl_up_sync(0xffffffffu, a, 1);
    a ^= __shfl_xor_sync(0xffffffffu, a, 16, 32);
    a += __shfl_down_sync(0x0000ffffu, a, 2, 16);
    double x = dd[threadIdx.x];
    x = __shfl_xor_sync(0xffffffffu, x, 1);
    long long y = __shfl_sync(0xffffffffu, (long long)a, lane ^ 3);
    d[threadIdx.x] = a + (int)y;
    dd[threadIdx.x] = x;
}

__global__ void warp_votes(const int *in, unsigned *out)
{
    int v = in[threadIdx.x];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v == 7);
    int all = __all_sync(0xffffffffu, v != 0);
    unsigned act = __activemask();
    unsigned m = __match_any_sync(0xffffffffu, v);
    int pred;
    unsigned ma = __match_all_sync(0xffffffffu, v, &pred);
    out[threadIdx.x] = b ^ any ^ all ^ act ^ m ^ ma ^ pred ^ __popc(b) ^ __ffs(b) ^ __clz(b);
    __syncwarp();
#if __CUDA_ARCH__ >= 800
    out[threadIdx.x] += __reduce_add_sync(0xffffffffu, (unsigned)v) + __reduce_max_sync(0xffffffffu, v)
                      + __reduce_or_sync(0xffffffffu, (unsigned)v);
#endif
}
