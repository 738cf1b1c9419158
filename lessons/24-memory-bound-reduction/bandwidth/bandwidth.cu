// Lesson 24, part (b): how fast can a GPU sum 256M floats (1 GiB)?
//
// Times five ways of reading the same 1 GiB once and compares them with the fastest way of
// reading it at all, a device-to-device copy:
//   1. shuffle reduction, scalar loads   (one 4-byte load per loop trip)
//   2. shared-memory tree reduction      (the same loads; the block reduces in shared memory)
//   3. shuffle reduction, float4 loads   (the lesson's own kernel, ../kernel.cu)
//   4. cub::DeviceReduce::Sum            (the library's answer)
//   5. cudaMemcpy device to device       (reads and writes every byte: bandwidth counts both)
// Each is run a few times to warm up, then timed with CUDA events; the table reports the median.
// Every sum is checked against a double-precision sum computed on the host.
//
// Build: nvcc -O3 -arch=sm_90 -o bandwidth bandwidth.cu      (run.sh does this and writes
// results.md). Output: a Markdown table on stdout; progress and errors on stderr.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../kernel.cu"  // sum_float4: exactly the kernel the lesson simulates

namespace {

constexpr int kThreads = 256;   // threads per block for the hand-written kernels
constexpr int kWarmup = 3;      // untimed runs before measuring
constexpr int kTimed = 21;      // timed runs; the median is reported

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "bandwidth: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

// 1. Grid-stride loop with one scalar load per trip, then warp shuffles (lesson 15's shape).
__global__ void sum_scalar(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warp_sums[32];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    sum += in[i];
  }
  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, sum);
  }
}

// 2. The same loads; the block then reduces in shared memory, halving the active threads each
// round with a barrier after every round (the classic tree, no shuffles).
__global__ void sum_shared_tree(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float partial[kThreads];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    sum += in[i];
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

// Deterministic test data: multiples of 1/1024 in [0, 1), exact in float and in double.
float value_at(unsigned i) {
  unsigned h = i * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return static_cast<float>(h & 1023u) / 1024.0f;
}

struct Result {
  const char* name;
  double ms = 0.0;        // median time of one run
  double bytes = 0.0;     // bytes moved per run (read, plus written for the copy)
  double sum = 0.0;       // the sum it computed (NaN for the copy)
  bool checked = false;   // whether `sum` is compared with the host sum
};

double median(std::vector<float> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Times `launch` (which enqueues one complete run on the default stream) and reads *d_out after
// the last run. `reset` is enqueued before every run, outside the timed region.
template <typename Launch, typename Reset>
double time_runs(Launch launch, Reset reset) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int r = 0; r < kWarmup; ++r) {
    reset();
    launch();
  }
  check(cudaDeviceSynchronize(), "warm-up runs");
  std::vector<float> times;
  for (int r = 0; r < kTimed; ++r) {
    reset();
    check(cudaEventRecord(start), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "timed run");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  check(cudaGetLastError(), "kernel launch");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(times);
}

// A persistent grid: as many blocks as can be resident at once on every SM.
template <typename Kernel>
int persistent_grid(Kernel kernel, int sms) {
  int per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return sms * std::max(per_sm, 1);
}

}  // namespace

int main() {
  const int n = 1 << 28;  // 256M floats
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);

  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0;
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");

  std::fprintf(stderr, "bandwidth: filling %d floats on the host\n", n);
  std::vector<float> host(n);
  double expected = 0.0;
  for (int i = 0; i < n; ++i) {
    host[i] = value_at(static_cast<unsigned>(i));
    expected += host[i];
  }

  float *d_in = nullptr, *d_copy = nullptr, *d_out = nullptr;
  check(cudaMalloc(&d_in, bytes), "cudaMalloc input");
  check(cudaMalloc(&d_copy, bytes), "cudaMalloc copy target");
  check(cudaMalloc(&d_out, sizeof(float)), "cudaMalloc result");
  check(cudaMemcpy(d_in, host.data(), bytes, cudaMemcpyHostToDevice), "upload");

  auto zero_out = [&] { check(cudaMemsetAsync(d_out, 0, sizeof(float)), "cudaMemsetAsync"); };
  auto no_reset = [] {};
  auto read_out = [&] {
    float value = 0.0f;
    check(cudaMemcpy(&value, d_out, sizeof(float), cudaMemcpyDeviceToHost), "download result");
    return static_cast<double>(value);
  };

  const int sms = prop.multiProcessorCount;
  const int grid_scalar = persistent_grid(sum_scalar, sms);
  const int grid_tree = persistent_grid(sum_shared_tree, sms);
  const int grid_vec = persistent_grid(sum_float4, sms);

  size_t temp_bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, temp_bytes, d_in, d_out, n), "cub temp size");
  void* d_temp = nullptr;
  check(cudaMalloc(&d_temp, temp_bytes), "cudaMalloc cub temp");

  std::vector<Result> results;
  std::fprintf(stderr, "bandwidth: timing\n");

  Result r1{"shuffle reduction, scalar loads"};
  r1.ms = time_runs([&] { sum_scalar<<<grid_scalar, kThreads>>>(d_in, d_out, n); }, zero_out);
  r1.bytes = static_cast<double>(bytes);
  r1.sum = read_out();
  r1.checked = true;
  results.push_back(r1);

  Result r2{"shared-memory tree reduction"};
  r2.ms = time_runs([&] { sum_shared_tree<<<grid_tree, kThreads>>>(d_in, d_out, n); }, zero_out);
  r2.bytes = static_cast<double>(bytes);
  r2.sum = read_out();
  r2.checked = true;
  results.push_back(r2);

  Result r3{"shuffle reduction, float4 loads (lesson kernel)"};
  r3.ms = time_runs([&] { sum_float4<<<grid_vec, kThreads>>>(d_in, d_out, n); }, zero_out);
  r3.bytes = static_cast<double>(bytes);
  r3.sum = read_out();
  r3.checked = true;
  results.push_back(r3);

  Result r4{"cub::DeviceReduce::Sum"};
  r4.ms = time_runs([&] { cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n); },
                    no_reset);
  r4.bytes = static_cast<double>(bytes);
  r4.sum = read_out();
  r4.checked = true;
  results.push_back(r4);

  Result r5{"cudaMemcpy device to device"};
  r5.ms = time_runs(
      [&] { check(cudaMemcpyAsync(d_copy, d_in, bytes, cudaMemcpyDeviceToDevice), "copy"); },
      no_reset);
  r5.bytes = 2.0 * static_cast<double>(bytes);  // every byte is read once and written once
  r5.sum = NAN;
  results.push_back(r5);

  const double copy_gbps = r5.bytes / (r5.ms * 1e-3) / 1e9;

  std::printf("Device: %s (sm_%d%d, %d SMs, %.0f MiB)  \n", prop.name, prop.major, prop.minor,
              sms, prop.totalGlobalMem / 1048576.0);
  std::printf("CUDA driver %d.%d, runtime %d.%d  \n", driver / 1000, (driver % 1000) / 10,
              runtime / 1000, (runtime % 1000) / 10);
  std::printf("Input: %d floats (%.0f MiB); %d warm-up runs, median of %d timed runs (CUDA "
              "events)  \n",
              n, bytes / 1048576.0, kWarmup, kTimed);
  std::printf("Grids (blocks of %d threads): scalar %d, tree %d, float4 %d  \n\n", kThreads,
              grid_scalar, grid_tree, grid_vec);
  std::printf("| kernel | time (ms) | GB/s | fraction of copy | sum check |\n");
  std::printf("|---|---:|---:|---:|---|\n");
  bool all_ok = true;
  for (const Result& r : results) {
    const double gbps = r.bytes / (r.ms * 1e-3) / 1e9;
    char check_text[96] = "n/a (copy)";
    if (r.checked) {
      const double rel = std::fabs(r.sum - expected) / expected;
      // The data are multiples of 1/1024, so float partial sums start rounding beyond 2^14; a
      // relative 1e-5 allows for that, while one lost block would be off by about 1e-3.
      const bool ok = rel < 1e-5;
      all_ok = all_ok && ok;
      std::snprintf(check_text, sizeof check_text, "%s (%.9g vs %.9g, rel %.1e)",
                    ok ? "ok" : "MISMATCH", r.sum, expected, rel);
    }
    std::printf("| %s | %.3f | %.0f | %.3f | %s |\n", r.name, r.ms, gbps, gbps / copy_gbps,
                check_text);
  }
  const double vec_vs_cub = r4.ms / r3.ms;  // > 1 when the lesson kernel is faster
  std::printf("\nLesson kernel (float4) vs CUB: %.1f%% of CUB's bandwidth (target: at least 97%%)\n",
              100.0 * vec_vs_cub);

  cudaFree(d_temp);
  cudaFree(d_out);
  cudaFree(d_copy);
  cudaFree(d_in);
  return all_ok ? 0 : 1;
}
