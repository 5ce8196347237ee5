// Half and bfloat16 arithmetic.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void half_axpy(int n, __half a, const __half *x, __half *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hfma(a, x[i], y[i]);
}

__global__ void half2_ops(int n, const __half2 *x, __half2 *y, float *f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 v = __hmul2(x[i], y[i]);
        v = __hadd2(v, __float2half2_rn(1.0f));
        v = h2sqrt(__habs2(v));
        y[i] = __hmax2(v, x[i]);
        float2 g = __half22float2(v);
        f[i] = g.x + g.y + __half2float(__hdiv(__low2half(v), __high2half(v)));
        if (__hgt(__low2half(v), __float2half(2.0f))) f[i] += __half2float(hexp(__float2half(0.5f)));
    }
}

__global__ void bf16_ops(int n, const __nv_bfloat16 *x, __nv_bfloat16 *y, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 b = __float2bfloat16(s);
        float t = __bfloat162float(x[i]) * s;
        y[i] = __hadd(__hmul(x[i], b), __float2bfloat16_rn(t));
        __nv_bfloat162 p = __floats2bfloat162_rn(t, s);
#if __CUDA_ARCH__ >= 800
        p = __hfma2(p, p, p);
#endif
        y[n + i] = __low2bfloat16(p);
    }
}

__global__ void half_convert(const float *in, __half *h, __nv_bfloat16 *b, short *s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        h[i] = __float2half_rz(in[i]);
        b[i] = __float2bfloat16_rz(in[i]);
        s[i] = __half2short_rn(h[i]) + (short)__bfloat162int_rn(b[i]);
    }
}
