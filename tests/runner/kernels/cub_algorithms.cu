// The CUDA toolkit's own cub, unmodified: warp and block reductions and scans, whose shuffles
// cub writes in inline PTX. Runs with nvcc too (for a --gpu check).
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda/functional>

// Per warp: out[0..2] = int sum, float sum, max over the first 20 lanes; then each lane's
// inclusive and exclusive sums at out[3 + 2 * lane], out[4 + 2 * lane].
__global__ void cub_warp(const int* in, int* out, float* float_sum) {
  using WarpReduce = cub::WarpReduce<int>;
  using WarpReduceFloat = cub::WarpReduce<float>;
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpReduce::TempStorage reduce_storage;
  __shared__ typename WarpReduceFloat::TempStorage float_storage;
  __shared__ typename WarpScan::TempStorage scan_storage;
  const int lane = threadIdx.x;
  const int sum = WarpReduce(reduce_storage).Sum(in[lane]);
  const float fsum = WarpReduceFloat(float_storage).Sum(in[lane] * 0.5f);
  const int partial_max = WarpReduce(reduce_storage).Reduce(in[lane], cuda::maximum<>(), 20);
  int inclusive = 0, exclusive = 0;
  WarpScan(scan_storage).InclusiveSum(in[lane], inclusive);
  __syncwarp();
  WarpScan(scan_storage).ExclusiveSum(in[lane], exclusive);
  if (lane == 0) {
    out[0] = sum;
    out[1] = partial_max;
    *float_sum = fsum;
  }
  out[3 + 2 * lane] = inclusive;
  out[4 + 2 * lane] = exclusive;
}

// A block of 128: out[0] = the block's sum, out[1 + i] = thread i's exclusive prefix sum.
__global__ void cub_block(const int* in, int* out) {
  using BlockReduce = cub::BlockReduce<int, 128>;
  using BlockScan = cub::BlockScan<int, 128>;
  __shared__ typename BlockReduce::TempStorage reduce_storage;
  __shared__ typename BlockScan::TempStorage scan_storage;
  const int sum = BlockReduce(reduce_storage).Sum(in[threadIdx.x]);
  int prefix = 0;
  BlockScan(scan_storage).ExclusiveSum(in[threadIdx.x], prefix);
  if (threadIdx.x == 0) out[0] = sum;
  out[1 + threadIdx.x] = prefix;
}

// cub::ThreadExit is PTX's `exit`, which warpsim does not run: the launch stops, naming it.
__global__ void cub_thread_exit(int* out) {
  out[threadIdx.x] = 1;
  cub::ThreadExit();
}
