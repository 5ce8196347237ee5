// Thread-block clusters and distributed shared memory (compute_90+).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_exchange(int *out)
{
#if __CUDA_ARCH__ >= 900
    __shared__ int buf[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    buf[threadIdx.x] = (int)(rank * 1000 + threadIdx.x);
    cluster.sync();
    int *peer = cluster.map_shared_rank(buf, rank ^ 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = peer[threadIdx.x] + (int)cluster.num_blocks();
    cluster.sync();
#endif
}

__global__ void __launch_bounds__(128) cluster_info(unsigned *out)
{
#if __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    dim3 bi = cluster.block_index();
    out[threadIdx.x] = bi.x + cluster.dim_blocks().x * 16 + (unsigned)cluster.thread_rank();
#endif
}
