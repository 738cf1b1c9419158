// Thrust on device vectors, as the samples use it (radixSortThrust, lineOfSight): sort_by_key,
// an inclusive scan with thrust::maximum, a reduction, and a kernel that works on a
// device_vector through thrust::raw_pointer_cast, with cudaMemcpy from the vector's memory.
// Under warpsim, Thrust builds its CPP device system (device_vector in host memory, as the
// simulated device's memory is); on a GPU, its CUDA system.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <algorithm>
#include <vector>

#include "check.cuh"

__global__ void addIndex(int* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += i;
}

int main() {
  const int n = 1000;
  thrust::host_vector<unsigned> keys(n);
  unsigned state = 12345u;
  for (unsigned& key : keys) {
    state = state * 1664525u + 1013904223u;
    key = state >> 8;
  }
  thrust::device_vector<unsigned> d_keys = keys;
  thrust::device_vector<int> d_values(n);
  thrust::sequence(d_values.begin(), d_values.end());
  thrust::sort_by_key(d_keys.begin(), d_keys.end(), d_values.begin());

  // The expected order: indices sorted by key (keys are distinct here).
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });

  addIndex<<<(n + 127) / 128, 128>>>(thrust::raw_pointer_cast(d_values.data()), n);
  CHECK(cudaGetLastError());
  std::vector<int> values(n);
  CHECK(cudaMemcpy(values.data(), thrust::raw_pointer_cast(d_values.data()), n * sizeof(int),
                   cudaMemcpyDeviceToHost));
  thrust::host_vector<unsigned> sorted = d_keys;
  bool passed = std::is_sorted(sorted.begin(), sorted.end());
  for (int i = 0; i < n; ++i) passed = passed && values[i] == order[i] + i;

  thrust::device_vector<int> d_running(n);
  thrust::inclusive_scan(d_values.begin(), d_values.end(), d_running.begin(),
                         thrust::maximum<int>());
  const long long total = thrust::reduce(d_values.begin(), d_values.end(), 0LL);
  long long expected_total = 0;
  int running = values[0];
  for (int i = 0; i < n; ++i) {
    running = std::max(running, values[i]);
    passed = passed && d_running[i] == running;
    expected_total += values[i];
  }
  passed = passed && total == expected_total;
  std::printf("sorted %d keys, sum %lld\n", n, total);
  return report(passed);
}
