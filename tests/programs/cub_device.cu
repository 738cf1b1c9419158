// cub's device-wide algorithms called from host code, as programs call them: `#include
// <cub/cub.cuh>` whole, each algorithm asked for its scratch size first, then run. cub launches
// its kernels through Thrust's triple_chevron (their `<<<>>>`, which warpsim rewrites in the
// toolkit's header); its scan and selection wait on earlier tiles' flags (decoupled look-back)
// across 200,000 elements of several blocks; the radix sort ranks digits with ballots.
#include <cub/cub.cuh>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <vector>

#include "check.cuh"

struct IsOdd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

__global__ void fill(int* values, unsigned* keys, int* indices, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    values[i] = (i * 7919) % 1009 - 500;
    keys[i] = (static_cast<unsigned>(i) * 2654435761u) >> 7;
    indices[i] = i;
  }
}

int main() {
  const int n = 200000;
  int *in, *out, *count, *vals_in, *vals_out;
  unsigned *keys_in, *keys_out;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&count, sizeof(int)));
  CHECK(cudaMalloc(&keys_in, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&keys_out, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&vals_in, n * sizeof(int)));
  CHECK(cudaMalloc(&vals_out, n * sizeof(int)));
  fill<<<(n + 255) / 256, 256>>>(in, keys_in, vals_in, n);
  CHECK(cudaGetLastError());
  std::vector<int> h(n);
  std::vector<unsigned> hk(n);
  CHECK(cudaMemcpy(h.data(), in, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hk.data(), keys_in, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

  // Scratch for all of them: each called once with no storage says how much it needs.
  std::size_t bytes = 0, most = 0;
  CHECK(cub::DeviceReduce::Sum(nullptr, bytes, in, out, n));
  most = std::max(most, bytes);
  CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n));
  most = std::max(most, bytes);
  CHECK(cub::DeviceSelect::If(nullptr, bytes, in, out, count, n, IsOdd{}));
  most = std::max(most, bytes);
  CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, n));
  most = std::max(most, bytes);
  void* scratch = nullptr;
  CHECK(cudaMalloc(&scratch, most));
  bool passed = true;

  bytes = most;
  CHECK(cub::DeviceReduce::Sum(scratch, bytes, in, out, n));
  int sum = 0;
  CHECK(cudaMemcpy(&sum, out, sizeof(int), cudaMemcpyDeviceToHost));
  const int want_sum = std::accumulate(h.begin(), h.end(), 0);
  std::printf("DeviceReduce::Sum %d (host %d)\n", sum, want_sum);
  passed = passed && sum == want_sum;

  bytes = most;
  CHECK(cub::DeviceReduce::Max(scratch, bytes, in, out, n));
  int largest = 0;
  CHECK(cudaMemcpy(&largest, out, sizeof(int), cudaMemcpyDeviceToHost));
  const int want_largest = *std::max_element(h.begin(), h.end());
  std::printf("DeviceReduce::Max %d (host %d)\n", largest, want_largest);
  passed = passed && largest == want_largest;

  bytes = most;
  CHECK(cub::DeviceScan::ExclusiveSum(scratch, bytes, in, out, n));
  std::vector<int> scan(n), want_scan(n);
  CHECK(cudaMemcpy(scan.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::exclusive_scan(h.begin(), h.end(), want_scan.begin(), 0);
  std::printf("DeviceScan::ExclusiveSum: last %d (host %d)\n", scan[n - 1], want_scan[n - 1]);
  passed = passed && scan == want_scan;

  bytes = most;
  CHECK(cub::DeviceSelect::If(scratch, bytes, in, out, count, n, IsOdd{}));
  int selected = 0;
  CHECK(cudaMemcpy(&selected, count, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> odd(selected), want_odd;
  CHECK(cudaMemcpy(odd.data(), out, selected * sizeof(int), cudaMemcpyDeviceToHost));
  std::copy_if(h.begin(), h.end(), std::back_inserter(want_odd), IsOdd{});
  std::printf("DeviceSelect::If: %d odd (host %zu)\n", selected, want_odd.size());
  passed = passed && odd == want_odd;

  bytes = most;
  CHECK(cub::DeviceRadixSort::SortPairs(scratch, bytes, keys_in, keys_out, vals_in, vals_out, n));
  std::vector<unsigned> sorted_keys(n);
  std::vector<int> sorted_values(n), order(n);
  CHECK(cudaMemcpy(sorted_keys.data(), keys_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sorted_values.data(), vals_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hk[a] < hk[b]; });
  bool sorted = true;
  for (int i = 0; i < n; ++i) sorted = sorted && sorted_keys[i] == hk[order[i]] && sorted_values[i] == order[i];
  std::printf("DeviceRadixSort::SortPairs: %s\n", sorted ? "stable, as on the host" : "differs");
  passed = passed && sorted;

  CHECK(cudaFree(scratch));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(count));
  CHECK(cudaFree(keys_in));
  CHECK(cudaFree(keys_out));
  CHECK(cudaFree(vals_in));
  CHECK(cudaFree(vals_out));
  return report(passed);
}
