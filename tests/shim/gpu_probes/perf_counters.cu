// What an H100 returns for the performance monitor counters %pm0-%pm3 (__pm0() ... __pm3()) in a
// plain run, no profiler attached: every thread of 2 blocks of 64 reads each counter before and
// after a short loop; thread 0 of each warp prints its readings. Compiled with nvcc by
// tests/shim/record_named_barriers.sh (the simulator does not compile these: not simulated).
#include <cstdio>

__global__ void read_counters(unsigned* out, int spin) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned before[4] = {__pm0(), __pm1(), __pm2(), __pm3()};
  unsigned x = t;
  for (int i = 0; i < spin; ++i) x = x * 1664525u + 1013904223u;
  unsigned after[4] = {__pm0(), __pm1(), __pm2(), __pm3()};
  for (int k = 0; k < 4; ++k) {
    out[t * 8 + k] = before[k];
    out[t * 8 + 4 + k] = after[k];
  }
  if (x == 42u) out[0] = x;  // keeps the loop
}

int main() {
  const int blocks = 2, threads = 64, n = blocks * threads;
  unsigned* device = nullptr;
  if (cudaMalloc(&device, n * 8 * sizeof(unsigned)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 1;
  }
  read_counters<<<blocks, threads>>>(device, 1000);
  const cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    std::printf("launch failed: %s\n", cudaGetErrorString(status));
    return 1;
  }
  unsigned host[n * 8];
  cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("thread  pm0 pm1 pm2 pm3 before | pm0 pm1 pm2 pm3 after 1000 loop iterations\n");
  for (int t = 0; t < n; t += 32) {
    const unsigned* r = host + t * 8;
    std::printf("%6d  %u %u %u %u | %u %u %u %u\n", t, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
  }
  bool all_zero = true;
  for (int i = 0; i < n * 8; ++i) all_zero = all_zero && host[i] == 0;
  std::printf("every reading of every thread is 0: %s\n", all_zero ? "yes" : "no");
  cudaFree(device);
  return 0;
}
