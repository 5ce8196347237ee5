// Texture objects: tex1Dfetch, tex2D, tex3D, layered, LOD, gather.
#include <cuda_runtime.h>

__global__ void tex1d_fetch(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i) + (float)tex1Dfetch<int>(t, n - 1 - i);
}

__global__ void tex2d_bilinear(cudaTextureObject_t t, float4 *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
        out[y * w + x] = tex2D<float4>(t, u, v);
    }
}

__global__ void tex3d_lod_grad(cudaTextureObject_t t3, cudaTextureObject_t t2, float *out, float lod)
{
    int i = threadIdx.x;
    float a = tex3D<float>(t3, i * 0.1f, 0.5f, 0.25f);
    float b = tex2DLod<float>(t2, i * 0.1f, 0.5f, lod);
    float c = tex2DGrad<float>(t2, i * 0.1f, 0.5f, make_float2(0.1f, 0.f), make_float2(0.f, 0.1f));
    out[i] = a + b + c;
}

__global__ void tex_layered_gather(cudaTextureObject_t tl, cudaTextureObject_t tg, float4 *out)
{
    int i = threadIdx.x;
    float a = tex2DLayered<float>(tl, i * 0.5f, 1.5f, blockIdx.x);
    float4 g = tex2Dgather<float4>(tg, i * 0.5f, 1.5f, 1);
    out[i] = make_float4(a, g.y, g.z, g.w);
}

__global__ void tex_int_cube(cudaTextureObject_t tc, int4 *out)
{
    int i = threadIdx.x;
    out[i] = texCubemap<int4>(tc, 1.0f, i * 0.01f, -0.5f);
}
