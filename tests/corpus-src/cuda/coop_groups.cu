// Cooperative groups: block, tiles, coalesced groups, grid sync.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_sum(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(warp, v, cg::plus<int>());
    if (warp.thread_rank() == 0) atomicAdd(out, s);
    block.sync();
}

__global__ void tile4_scan(int *data)
{
    auto t4 = cg::tiled_partition<4>(cg::this_thread_block());
    int v = data[threadIdx.x];
    for (int o = 1; o < 4; o <<= 1) {
        int u = t4.shfl_up(v, o);
        if (t4.thread_rank() >= o) v += u;
    }
    data[threadIdx.x] = v;
}

__global__ void coalesced(int *data)
{
    if (data[threadIdx.x] & 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        int r = g.thread_rank();
        data[threadIdx.x] = r + g.shfl(r, 0) + (int)g.size();
    }
}

__global__ void grid_stage(float *a, int n)
{
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) a[i] *= 2.0f;
    grid.sync();
    for (int i = grid.thread_rank(); i < n - 1; i += grid.size()) a[i] += a[i + 1];
}
