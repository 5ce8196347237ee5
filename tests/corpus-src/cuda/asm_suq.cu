// Surface queries through inline PTX.
#include <cuda_runtime.h>

__global__ void suq_all(cudaSurfaceObject_t s, int *out)
{
    int w, h, d, order, dtype, layers, layout;
    asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s));
    asm("suq.height.b32 %0, [%1];" : "=r"(h) : "l"(s));
    asm("suq.depth.b32 %0, [%1];" : "=r"(d) : "l"(s));
    asm("suq.channel_order.b32 %0, [%1];" : "=r"(order) : "l"(s));
    asm("suq.channel_data_type.b32 %0, [%1];" : "=r"(dtype) : "l"(s));
    asm("suq.array_size.b32 %0, [%1];" : "=r"(layers) : "l"(s));
    asm("suq.memory_layout.b32 %0, [%1];" : "=r"(layout) : "l"(s));
    out[0] = w; out[1] = h; out[2] = d; out[3] = order;
    out[4] = dtype; out[5] = layers; out[6] = layout;
}

__global__ void suq_clamped_copy(cudaSurfaceObject_t s, float *dst)
{
    int w;
    asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s));
    int x = threadIdx.x;
    if (x < w) dst[x] = surf1Dread<float>(s, x * 4);
}
