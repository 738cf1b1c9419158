// Records what an NVIDIA GPU computes for every case of cases.inc on the inputs of inputs.cuh.
// Not part of the build: compile with the CUDA toolkit and run on a GPU (README.md):
//   nvcc -std=c++17 -arch=sm_90 -O2 -o record_gpu record_gpu.cu && ./record_gpu OUT.txt
// OUT.txt: a header line (device, toolkit), then one line per case:
//   LABEL RESULT_BYTES VALUE0 VALUE1 ... VALUE1023   (each the result's bits in hex)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "inputs.cuh"

using gpu_vectors::None;
using gpu_vectors::kInputs;

#define EXACT(LABEL, R, A, B, C, EXPR)                                              \
  __global__ void kernel_##LABEL(unsigned long long* out) {                        \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                            \
    if (i >= kInputs) return;                                                       \
    [[maybe_unused]] const A a = gpu_vectors::input<A>(i, 0);                       \
    [[maybe_unused]] const B b = gpu_vectors::input<B>(i, 1);                       \
    [[maybe_unused]] const C c = gpu_vectors::input<C>(i, 2);                       \
    out[i] = gpu_vectors::to_bits<R>(EXPR);                                         \
  }
#define APPROX EXACT
#include "cases.inc"
#undef EXACT
#undef APPROX

namespace {

void check(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return;
  std::fprintf(stderr, "record_gpu: %s: %s\n", what, cudaGetErrorString(error));
  std::exit(1);
}

template <class Kernel>
void record(std::FILE* file, const char* label, int result_bytes, Kernel kernel,
            unsigned long long* device_out) {
  std::vector<unsigned long long> out(kInputs);
  check(cudaMemset(device_out, 0, kInputs * sizeof(unsigned long long)), "cudaMemset");
  kernel<<<(kInputs + 255) / 256, 256>>>(device_out);
  check(cudaGetLastError(), label);
  check(cudaDeviceSynchronize(), label);
  check(cudaMemcpy(out.data(), device_out, kInputs * sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost),
        "cudaMemcpy");
  std::fprintf(file, "%s %d", label, result_bytes);
  for (const unsigned long long v : out) std::fprintf(file, " %llx", v);
  std::fprintf(file, "\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: record_gpu OUT.txt\n");
    return 2;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::FILE* file = std::fopen(argv[1], "w");
  if (file == nullptr) return 1;
  std::fprintf(file, "# %s sm_%d%d driver %d runtime %d inputs %d\n", prop.name, prop.major,
               prop.minor, driver, runtime, kInputs);
  unsigned long long* device_out = nullptr;
  check(cudaMalloc(&device_out, kInputs * sizeof(unsigned long long)), "cudaMalloc");
#define EXACT(LABEL, R, A, B, C, EXPR) \
  record(file, #LABEL, static_cast<int>(sizeof(R)), kernel_##LABEL, device_out);
#define APPROX EXACT
#include "cases.inc"
#undef EXACT
#undef APPROX
  std::fclose(file);
  return 0;
}
