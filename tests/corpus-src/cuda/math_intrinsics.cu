// Float/double math library and integer intrinsics.
#include <cuda_runtime.h>

__global__ void float_math(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    y[i] = sinf(v) + cosf(v) * expf(-v) + logf(fabsf(v) + 1.f)
         + __sinf(v) + __expf(v) + rsqrtf(v * v + 1.f) + fmaf(v, v, 1.f)
         + __fdividef(v, 3.f) + __saturatef(v) + truncf(v) + roundf(v)
         + __fadd_rz(v, 1.f) + __fmul_rn(v, 2.f) + __frcp_rd(v + 2.f) + copysignf(1.f, v);
}

__global__ void double_math(const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    y[i] = exp(v) + sqrt(fabs(v)) + fma(v, v, 1.0)
         + __dadd_rn(v, 1.0) + __dmul_rz(v, 3.0) + __drcp_rn(v + 2.0) + floor(v) + ceil(v)
         + (double)__double2int_rz(v) + __int2double_rn(i) + fmin(v, 2.0);
}

__global__ void int_intrinsics(const unsigned *a, unsigned *b, unsigned long long *c)
{
    int t = threadIdx.x;
    unsigned v = a[t];
    b[t] = __popc(v) + __clz(v) + __ffs(v) + __brev(v) + __byte_perm(v, 0x12345678u, 0x3210)
         + __funnelshift_l(v, ~v, 5) + __funnelshift_r(v, ~v, t) + __umulhi(v, 0x9e3779b9u)
         + __sad(v, 7u, 1u) + __usad(v, 3u, 0u) + __vadd4(v, 0x01010101u) + __vabsdiffu4(v, 0x80808080u)
         + __hadd((int)v, 5) + __rhadd((int)v, 5) + __mul24((int)v, 3) + __dp4a(v, v, 0u);
    c[t] = __umul64hi((unsigned long long)v << 32, 0xfffffffful) + __popcll(v) + __clzll(v) + __brevll(v);
}

__global__ void conversions(const double *d, float *f, int *i, unsigned long long *u, short *s)
{
    int t = threadIdx.x;
    f[t] = __double2float_rd(d[t]);
    i[t] = __float2int_rn(f[t]) + __double2int_rd(d[t]) + __float_as_int(f[t]);
    u[t] = __double2ull_rz(d[t]) + __float2ull_ru(f[t]) + (unsigned long long)__double_as_longlong(d[t]);
    s[t] = (short)(signed char)i[t];
}
