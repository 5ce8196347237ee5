// CUDA for clang's device-only compile without CUDA headers (-nocudainc):
// surface access through inline PTX on 64-bit surface-object handles.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

typedef unsigned long long surface_t;

static __device__ int gx() { return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x(); }

static __device__ __attribute__((noinline)) int surf_load(surface_t s, int x, int y)
{
    int v;
    asm volatile("suld.b.2d.b32.trap {%0}, [%1, {%2, %3}];" : "=r"(v) : "l"(s), "r"(x * 4), "r"(y));
    return v;
}

static __device__ __attribute__((noinline)) void surf_store(surface_t s, int x, int y, int v)
{
    asm volatile("sust.b.2d.b32.trap [%0, {%1, %2}], {%3};" :: "l"(s), "r"(x * 4), "r"(y), "r"(v) : "memory");
}

__global__ void flip_rows(surface_t src, surface_t dst, int w, int h)
{
    int x = gx();
    int y = __nvvm_read_ptx_sreg_tid_y();
    if (x < w && y < h)
        surf_store(dst, x, h - 1 - y, surf_load(src, x, y));
}

__global__ void count_into_surface(surface_t bins, const unsigned char *keys, int n)
{
    int i = gx();
    if (i < n) {
        unsigned k = keys[i];
        asm volatile("sured.b.add.1d.u32.clamp [%0, {%1}], %2;" :: "l"(bins), "r"((int)k * 4), "r"(1u) : "memory");
    }
}

__global__ void query(surface_t s, int *out)
{
    int w, h;
    asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s));
    asm("suq.height.b32 %0, [%1];" : "=r"(h) : "l"(s));
    out[0] = w;
    out[1] = h;
}
