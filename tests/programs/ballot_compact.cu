// Stream compaction within each warp: __ballot_sync marks the lanes that keep their value,
// __popc of the lower lanes' bits gives each one its output slot, and one atomicAdd per warp
// reserves the warp's space in the output.
#include <algorithm>
#include <vector>

#include "check.cuh"

__global__ void compactPositive(const int* in, int n, int* out, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int value = i < n ? in[i] : 0;
  const bool keep = value > 0;
  const unsigned votes = __ballot_sync(0xffffffffu, keep);
  int base = 0;
  if (lane == 0) base = atomicAdd(count, __popc(votes));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) out[base + __popc(votes & ((1u << lane) - 1))] = value;
}

int main() {
  const int n = 2000;
  std::vector<int> in(n);
  int expected_count = 0;
  long long expected_sum = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 37) % 23 - 11;
    if (in[i] > 0) {
      ++expected_count;
      expected_sum += in[i];
    }
  }
  int *d_in, *d_out, *d_count;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_count, sizeof(int)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_count, 0, sizeof(int)));
  compactPositive<<<(n + 127) / 128, 128>>>(d_in, n, d_out, d_count);
  CHECK(cudaGetLastError());
  int count = 0;
  CHECK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> out(count > 0 ? count : 1);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  bool all_positive = true;
  for (int k = 0; k < count; ++k) {
    sum += out[k];
    all_positive = all_positive && out[k] > 0;
  }
  std::printf("compacted %d of %d values (expected %d), sum %lld\n", count, n, expected_count, sum);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_count));
  return report(count == expected_count && sum == expected_sum && all_positive);
}
