// A cooperative launch: grid.sync() holds every block of the grid, so one kernel does what
// otherwise takes one launch per phase. Phase 1: each block sums its grid-stride share into
// partial[block]; grid.sync(); phase 2: block 0 adds the partials; grid.sync(); phase 3: every
// block reads the total. Launched with cudaLaunchCooperativeKernel and again with
// cudaLaunchKernelEx and cudaLaunchAttributeCooperative, each checked by an ordinary <<<>>>
// launch; a grid larger than the device holds at once is refused with
// cudaErrorCooperativeLaunchTooLarge.
#include <cooperative_groups.h>

#include "check.cuh"

namespace cg = cooperative_groups;

__global__ void gridTotal(const int* in, int* partial, int* seen, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sums[256];
  int sum = 0;
  for (int i = static_cast<int>(grid.thread_rank()); i < n; i += static_cast<int>(grid.size())) {
    sum += in[i];
  }
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) sums[threadIdx.x] += sums[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    partial[gridDim.x] = total;
  }
  grid.sync();
  if (threadIdx.x == 0) seen[blockIdx.x] = partial[gridDim.x];
}

// An ordinary launch of one warp: how many blocks saw the expected total.
__global__ void countMatches(const int* seen, int blocks, int expected, int* matches) {
  int count = 0;
  for (int b = threadIdx.x; b < blocks; b += 32) count += seen[b] == expected ? 1 : 0;
  for (int offset = 16; offset > 0; offset /= 2) {
    count += __shfl_down_sync(0xffffffffu, count, offset);
  }
  if (threadIdx.x == 0) *matches = count;
}

int main() {
  const int n = 200000, threads = 256;
  int device = 0, cooperative = 0, sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gridTotal, threads, 0));
  const int blocks = sms > 8 ? sms / 4 : 2;  // resident at once wherever one block per SM fits
  std::printf("cooperative launch supported: %s; a block per SM fits: %s\n",
              cooperative ? "yes" : "no", per_sm >= 1 ? "yes" : "no");

  int *in, *partial, *seen;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&partial, (blocks + 1) * sizeof(int)));
  CHECK(cudaMallocManaged(&seen, blocks * sizeof(int)));
  int* matches;
  CHECK(cudaMallocManaged(&matches, sizeof(int)));
  int expected = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = i % 13 - 6;
    expected += in[i];
  }
  bool passed = true;
  for (int form = 0; form < 2; ++form) {
    CHECK(cudaMemset(seen, 0, blocks * sizeof(int)));
    int count = n;
    if (form == 0) {
      void* args[] = {&in, &partial, &seen, &count};
      CHECK(cudaLaunchCooperativeKernel((void*)gridTotal, blocks, threads, args));
    } else {
      cudaLaunchAttribute attribute[1];
      attribute[0].id = cudaLaunchAttributeCooperative;
      attribute[0].val.cooperative = 1;
      cudaLaunchConfig_t config = {};
      config.gridDim = blocks;
      config.blockDim = threads;
      config.attrs = attribute;
      config.numAttrs = 1;
      CHECK(cudaLaunchKernelEx(&config, gridTotal, in, partial, seen, count));
    }
    countMatches<<<1, 32>>>(seen, blocks, expected, matches);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const int agree = *matches;
    std::printf("%s: total %d (expected %d); blocks that read it after grid.sync: %s\n",
                form == 0 ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernelEx",
                partial[blocks], expected, agree == blocks ? "all" : "not all");
    passed = passed && partial[blocks] == expected && agree == blocks;
  }

  // More blocks than the device holds at once: refused, nothing runs.
  void* args[] = {&in, &partial, &seen, const_cast<int*>(&n)};
  const cudaError_t too_large =
      cudaLaunchCooperativeKernel((void*)gridTotal, per_sm * sms + 1, threads, args);
  std::printf("a grid one block larger than fits: %s\n", cudaGetErrorName(too_large));
  passed = passed && too_large == cudaErrorCooperativeLaunchTooLarge;
  (void)cudaGetLastError();

  CHECK(cudaFree(in));
  CHECK(cudaFree(partial));
  CHECK(cudaFree(seen));
  CHECK(cudaFree(matches));
  return report(passed);
}
