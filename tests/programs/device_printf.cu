// printf in kernels: the lines of a launch appear when the host synchronizes, before what the
// host prints afterwards. One lane per warp prints, so the order within a launch is the warps'.
#include "check.cuh"

__global__ void hello(int round) {
  const unsigned lanes = __activemask();
  if (threadIdx.x == 0) printf("round %d: block %d says hello from %d lanes\n", round, blockIdx.x, __popc(lanes));
}

int main() {
  for (int round = 0; round < 2; ++round) {
    hello<<<1, 32>>>(round);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("host after round %d\n", round);
  }
  return report(true);
}
