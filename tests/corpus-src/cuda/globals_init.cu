// Initialized globals, constant arrays, pointer initializers (generic()).
#include <cuda_runtime.h>

__constant__ float c_coeffs[8] = { 0.5f, -1.25f, 2.0f, 3.5f, 0.f, 1e-3f, -7.f, 42.f };
__constant__ int c_lut[4][4] = { {1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16} };
__constant__ double c_pi = 3.14159265358979323846;
__device__ int g_table[16] = { 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987 };
__device__ unsigned char g_bytes[5] = { 0xde, 0xad, 0xbe, 0xef, 0x00 };
__device__ short g_shorts[3] = { -1, 2, -3 };
__device__ long long g_big = 0x123456789abcdefll;
__device__ int *g_ptr = &g_table[3];
__device__ int *g_ptrs[2] = { &g_table[0], &g_table[8] };
__device__ const char *g_msg = "surface";
__device__ float g_zero[64];
struct Pair { int a; float b; char c; };
__device__ Pair g_pairs[2] = { {1, 2.5f, 'x'}, {3, 4.5f, 'y'} };
static __device__ int s_private = 9;

__global__ void use_globals(float *out, int i)
{
    out[0] = c_coeffs[i & 7] * c_lut[i & 3][(i >> 2) & 3] + (float)c_pi;
    out[1] = (float)(g_table[i & 15] + *g_ptr + g_ptrs[i & 1][1] + g_bytes[i % 5] + g_shorts[i % 3]);
    out[2] = (float)(g_big >> 32) + g_zero[i & 63] + g_pairs[i & 1].b + g_pairs[0].c;
    out[3] = (float)g_msg[i & 7] + s_private++;
}
