// 1D surface object reads/writes with several element types.
#include <cuda_runtime.h>

__global__ void surf1d_int(cudaSurfaceObject_t s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v;
    surf1Dread(&v, s, i * (int)sizeof(int));
    surf1Dwrite(v * 3 + 1, s, i * (int)sizeof(int));
}

__global__ void surf1d_float(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int n, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float f = surf1Dread<float>(src, i * 4);
        surf1Dwrite(f * scale, dst, i * 4);
    }
}

__global__ void surf1d_char_short(cudaSurfaceObject_t sc, cudaSurfaceObject_t ss, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        char c = surf1Dread<char>(sc, i);
        short s = surf1Dread<short>(ss, i * 2);
        surf1Dwrite((char)(c ^ 0x5a), sc, i);
        surf1Dwrite((short)(s + c), ss, i * 2);
    }
}

__global__ void surf1d_uchar4(cudaSurfaceObject_t s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = surf1Dread<uchar4>(s, i * 4);
        uchar4 q = make_uchar4(p.w, p.z, p.y, p.x);
        surf1Dwrite(q, s, i * 4);
    }
}
