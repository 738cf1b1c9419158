// What every LLM-kernel harness shares: seeded inputs, device buffers, a CUDA error check and
// the one result line scripts/llm_kernels.py reads. Each harness #includes a project's own
// kernel file from its checkout (by -I), launches one kernel as the project does, and compares
// its output with a CPU reference written here. The same file builds with nvcc
// (scripts/record_gpu_llm.sh), so nothing in it is simulator-specific.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define LLM_CHECK(call)                                                                 \
  do {                                                                                  \
    const cudaError_t llm_error_ = (call);                                              \
    if (llm_error_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "CUDA error '%s' at %s:%d\n", cudaGetErrorString(llm_error_), \
                   __FILE__, __LINE__);                                                 \
      std::exit(2);                                                                     \
    }                                                                                   \
  } while (0)

// A 64-bit LCG: the same inputs on every machine and compiler.
struct LlmRandom {
  uint64_t state;
  explicit LlmRandom(uint64_t seed) : state(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  float uniform(float lo, float hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double unit = double(state >> 11) / double(1ull << 53);
    return float(lo + (hi - lo) * unit);
  }
  int integer(int lo, int hi) {  // [lo, hi]
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + int((state >> 33) % uint64_t(hi - lo + 1));
  }
};

inline std::vector<float> llm_uniform(size_t n, uint64_t seed, float lo, float hi) {
  LlmRandom random(seed);
  std::vector<float> v(n);
  for (float& x : v) x = random.uniform(lo, hi);
  return v;
}

template <typename T>
T* llm_to_device(const std::vector<T>& host) {
  T* device = nullptr;
  LLM_CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
  LLM_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

template <typename T>
std::vector<T> llm_to_host(const T* device, size_t n) {
  std::vector<T> host(n);
  LLM_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// Largest |got - want| / max(1, |want|): absolute near zero, relative for large values.
inline double llm_max_error(const std::vector<float>& got, const std::vector<double>& want) {
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double error = std::fabs(double(got[i]) - want[i]) / std::fmax(1.0, std::fabs(want[i]));
    if (!(error <= worst)) worst = error;  // a NaN becomes the worst
  }
  return worst;
}

// The line the runner reads; the exit status is the verdict.
inline int llm_report(const char* kernel, const char* shape, double max_error, double tolerance) {
  const bool pass = max_error <= tolerance;
  std::printf("LLM-RESULT kernel=%s shape=%s max_error=%.3g tolerance=%.3g result=%s\n", kernel, shape,
              max_error, tolerance, pass ? "pass" : "fails");
  return pass ? 0 : 1;
}
