// Atomic operations of many kinds and scopes.
#include <cuda_runtime.h>

__global__ void atomics_int(int *p, unsigned *u, unsigned long long *ull, int v)
{
    atomicAdd(&p[0], v);
    atomicSub(&p[1], v);
    atomicMax(&p[2], v);
    atomicMin(&p[3], v);
    atomicExch(&p[4], v);
    atomicAnd(&p[5], v);
    atomicOr(&p[6], v);
    atomicXor(&p[7], v);
    atomicCAS(&p[8], v, v + 1);
    atomicInc(&u[0], 100u);
    atomicDec(&u[1], 100u);
    atomicAdd(&ull[0], (unsigned long long)v);
    atomicCAS(&ull[1], 0ull, (unsigned long long)v);
    atomicMax(&ull[2], (unsigned long long)v);
}

__global__ void atomics_float(float *f, double *d, float v)
{
    float old = atomicAdd(&f[threadIdx.x & 7], v);
    atomicExch(&f[8], old);
#if __CUDA_ARCH__ >= 600
    atomicAdd(&d[threadIdx.x & 3], (double)v);
#endif
}

__global__ void atomics_scoped(int *p, float *f)
{
#if __CUDA_ARCH__ >= 600
    atomicAdd_block(&p[0], 1);
    atomicAdd_system(&p[1], 1);
    atomicCAS_block(&p[2], 0, 1);
    atomicMax_system(&p[3], (int)threadIdx.x);
    atomicAdd_system(&f[0], 1.0f);
#endif
}

__global__ void atomics_shared(int *out)
{
    __shared__ int counter;
    __shared__ unsigned long long wide;
    if (threadIdx.x == 0) { counter = 0; wide = 0; }
    __syncthreads();
    int slot = atomicAdd(&counter, 1);
    atomicAdd(&wide, 1ull << (slot & 31));
    __syncthreads();
    if (threadIdx.x == 0) { out[blockIdx.x] = counter; out[gridDim.x + blockIdx.x] = (int)wide; }
}
