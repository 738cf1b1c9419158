// Grouping lanes by key with __match_any_sync: each group elects its lowest lane as leader,
// which adds the group's size to that key's counter (one atomic per distinct key per warp).
#include "check.cuh"

__global__ void countKeys(const int* keys, int n, int* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffffu, i < n);
  if (i >= n) return;
  const int key = keys[i];
  const unsigned group = __match_any_sync(active, key);
  const int leader = __ffs(group) - 1;
  if ((threadIdx.x & 31) == leader) atomicAdd(&counts[key], __popc(group));
}

int main() {
  const int n = 1000, distinct = 10;
  int *keys, *counts;
  CHECK(cudaMallocManaged(&keys, n * sizeof(int)));
  CHECK(cudaMallocManaged(&counts, distinct * sizeof(int)));
  int expected[distinct] = {};
  for (int i = 0; i < n; ++i) {
    keys[i] = (i * i + 3 * i) % distinct;
    ++expected[keys[i]];
  }
  for (int k = 0; k < distinct; ++k) counts[k] = 0;
  countKeys<<<(n + 63) / 64, 64>>>(keys, n, counts);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int wrong = 0;
  for (int k = 0; k < distinct; ++k) wrong += counts[k] != expected[k];
  std::printf("key counts: [0] = %d, [1] = %d, %d wrong\n", counts[0], counts[1], wrong);
  CHECK(cudaFree(keys));
  CHECK(cudaFree(counts));
  return report(wrong == 0);
}
