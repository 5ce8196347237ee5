// General CUDA kernels for clang's device-only compile (-nocudainc): shared memory,
// barriers, atomics, device globals, constant data, loops and calls.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))

__constant__ float weights[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };
__device__ int processed = 0;
__device__ const char *labels[2] = { "even", "odd" };

extern "C" __device__ int vprintf(const char *, void *);

static __device__ unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }
static __device__ unsigned gid() { return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + tid(); }

__device__ __attribute__((noinline)) float blur5(const float *s, int i)
{
    float acc = 0.f;
    for (int k = 0; k < 5; ++k) acc += weights[k] * s[i + k];
    return acc;
}

__global__ void blur(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 4];
    int i = gid();
    tile[tid() + 2] = i < n ? in[i] : 0.f;
    if (tid() < 2) {
        tile[tid()] = i >= 2 ? in[i - 2] : 0.f;
        tile[tid() + 258] = i + 256 < n ? in[i + 256] : 0.f;
    }
    __syncthreads();
    if (i < n) out[i] = blur5(tile, tid());
    if (tid() == 0) __atomic_fetch_add(&processed, 1, __ATOMIC_RELAXED);
}

__global__ void histogram(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned local[64];
    if (tid() < 64) local[tid()] = 0;
    __syncthreads();
    for (int i = gid(); i < n; i += 1024)
        __nvvm_atom_add_gen_i((int *)&local[data[i] & 63], 1);
    __syncthreads();
    if (tid() < 64) __atomic_fetch_add(&bins[tid()], local[tid()], __ATOMIC_SEQ_CST);
}

__device__ __attribute__((noinline)) int apply_op(int op, int a, int b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a & b;
    case 4: return a | b;
    case 5: return a ^ b;
    case 6: return a << (b & 31);
    case 7: return a >> (b & 31);
    default: return 0;
    }
}

__global__ void run_ops(const int *ops, int *acc, int n)
{
    int v = acc[tid()];
    for (int i = 0; i < n; ++i) v = apply_op(ops[i], v, i);
    acc[tid()] = v;
}

__global__ void announce(int v)
{
    struct { const char *l; int v; } args = { labels[v & 1], v };
    if (gid() == 0) vprintf("%s %d\n", &args);
}
