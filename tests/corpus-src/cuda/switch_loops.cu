// Control flow: dense switches, loops, goto, unrolled loops, predication.
#include <cuda_runtime.h>

__device__ __noinline__ int dense_switch(int k, int v)
{
    switch (k) {
    case 0: return v + 1;
    case 1: return v * 3;
    case 2: return v - 7;
    case 3: return v ^ 0x55;
    case 4: return v << 2;
    case 5: return v >> 1;
    case 6: return ~v;
    case 7: return v * v;
    case 8: return v | 0x100;
    case 9: return v & 0xff;
    default: return 0;
    }
}

__global__ void switch_kernel(const int *k, int *v)
{
    int t = threadIdx.x;
    v[t] = dense_switch(k[t], v[t]);
}

__global__ void loops(float *a, int n, int m)
{
    int t = threadIdx.x;
    float s = 0;
    for (int i = 0; i < n; ++i) {
        if (a[i] < 0) continue;
        for (int j = 0; j < m; ++j) {
            s += a[i] * j;
            if (s > 1e6f) goto done;
        }
    }
done:
#pragma unroll 4
    for (int i = 0; i < 16; ++i) s = s * 0.5f + a[(t + i) & 63];
    int w = 0;
    do { w += t; } while (w < n);
    a[t] = s + w;
}
