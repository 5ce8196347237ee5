// Global loads/stores of many types, vector widths and cache hints.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void store_scalars(int8_t *b, int16_t *s, int32_t *i, int64_t *l, float *f, double *d, int v)
{
    int t = threadIdx.x;
    b[t] = (int8_t)v; s[t] = (int16_t)v; i[t] = v; l[t] = (int64_t)v << 20;
    f[t] = (float)v; d[t] = (double)v * 0.25;
}

__global__ void store_vectors(char2 *c2, short4 *s4, int4 *i4, float2 *f2, float4 *f4, double2 *d2, longlong2 *l2, uchar4 *u4)
{
    int t = threadIdx.x;
    c2[t] = make_char2(t, -t);
    s4[t] = make_short4(t, t + 1, t + 2, t + 3);
    i4[t] = make_int4(t, t * 2, t * 3, t * 4);
    f2[t] = make_float2(t * 0.5f, t * 1.5f);
    f4[t] = make_float4(1, 2, 3, t);
    d2[t] = make_double2(t, -t);
    l2[t] = make_longlong2(t, (long long)t << 33);
    u4[t] = make_uchar4(t, t >> 8, 0, 255);
}

__global__ void cache_hints(const float4 *in, float4 *out, const int *ri, int *wi)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float4 a = __ldg(&in[t]);
    float4 b = __ldcs(&in[t + 1]);
    float4 c = __ldcg(&in[t + 2]);
    float4 d = __ldca(&in[t + 3]);
    int e = __ldlu(&ri[t]) + __ldcv(&ri[t + 1]);
    __stcs(&out[t], a);
    __stcg(&out[t + 1], b);
    __stwt(&out[t + 2], c);
    __stwb(&out[t + 3], d);
    __stcs(&wi[t], e);
    __stwt(&wi[t + 1], e * 2);
}

__global__ void volatile_and_restrict(volatile int *flag, const float *__restrict__ a, float *__restrict__ b)
{
    int t = threadIdx.x;
    b[t] = a[t] + a[t + 32];
    __threadfence();
    if (t == 0) *flag = 1;
    __threadfence_block();
    __threadfence_system();
}
