// Non-inlined device functions, recursion, function pointers (indirect calls).
#include <cuda_runtime.h>

__device__ __noinline__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

__device__ __noinline__ float2 polar(float r, float t)
{
    float s, c;
    sincosf(t, &s, &c);
    return make_float2(r * c, r * s);
}

__device__ __noinline__ void accumulate(float *acc, const float *v, int n)
{
    for (int i = 0; i < n; ++i) acc[i & 3] += v[i];
}

typedef float (*unary_fn)(float);
__device__ float op_sq(float x) { return x * x; }
__device__ float op_neg(float x) { return -x; }
__device__ float op_half(float x) { return 0.5f * x; }
__device__ unary_fn ops[3] = { op_sq, op_neg, op_half };

__global__ void call_kernel(const int *a, const int *b, int *g, float *out, int which)
{
    int i = threadIdx.x;
    g[i] = gcd(a[i], b[i]);
    float2 p = polar((float)a[i], (float)b[i]);
    float acc[4] = {0, 0, 0, 0};
    accumulate(acc, out, i & 15);
    unary_fn f = ops[which % 3];
    out[i] = f(p.x) + p.y + acc[0] + acc[1] + acc[2] + acc[3];
}

struct Shape {
    __device__ virtual float area() const { return 0.f; }
};
struct Square : Shape {
    float s;
    __device__ Square(float s_) : s(s_) {}
    __device__ float area() const override { return s * s; }
};

__global__ void virtual_call(float *out, float side)
{
    Square sq(side + threadIdx.x);
    Shape *sh = &sq;
    out[threadIdx.x] = sh->area();
}
