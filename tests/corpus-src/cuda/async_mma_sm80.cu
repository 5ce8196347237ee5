// cp.async pipeline and warp-level matrix multiply (compute_80+).
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void async_copy(const float4 *in, float4 *out)
{
    __shared__ float4 stage[2][64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&stage[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    __pipeline_memcpy_async(&stage[1][t], &in[64 + t], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    float4 a = stage[0][63 - t];
    __pipeline_wait_prior(0);
    __syncthreads();
    float4 b = stage[1][63 - t];
    out[t] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void wmma_16x16(const half *a, const half *b, float *c)
{
#if __CUDA_ARCH__ >= 700
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
#endif
}

__global__ void mma_inline(const unsigned *a, const unsigned *b, float *d)
{
#if __CUDA_ARCH__ >= 800
    int t = threadIdx.x;
    float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a[t]), "r"(a[t + 32]), "r"(a[t + 64]), "r"(a[t + 96]), "r"(b[t]), "r"(b[t + 32]));
    d[t] = c0; d[t + 32] = c1; d[t + 64] = c2; d[t + 96] = c3;
#endif
}
