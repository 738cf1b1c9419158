// Records cuRAND's device API (default XORWOW generator) on a GPU, for curand_test.cpp: for each
// (seed, subsequence, offset) below, curand_init then 8 curand(), 4 curand_uniform, 4
// curand_normal, one curand_normal2, one curand_uniform_double, one curand_normal_double and one
// curand_log_normal(0, 1), each as its bits in hex. Not part of the build (README.md):
//   nvcc -std=c++17 -arch=sm_90 -O2 -o record_curand record_curand.cu && ./record_curand OUT.txt
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>
#include <curand_kernel.h>

struct Start {
  unsigned long long seed, subsequence, offset;
};

__constant__ Start kStarts[] = {{0, 0, 0},          {1234, 0, 0},       {1234, 1, 0},
                                {1234, 0, 5},       {42, 7, 100},       {0xdeadbeefcafeull, 3, 1},
                                {1, 1000, 0},       {99, 0, 1ull << 40}, {5, 65536, 12345},
                                {123456789, 2, 70000}};
constexpr int kCount = sizeof(kStarts) / sizeof(kStarts[0]);
constexpr int kValues = 8 + 4 + 4 + 2 + 1 + 1 + 1;

template <class T>
__device__ unsigned long long bits(T v) {
  unsigned long long b = 0;
  memcpy(&b, &v, sizeof v);
  return b;
}

__global__ void sample(unsigned long long* out) {
  const int t = threadIdx.x;
  if (t >= kCount) return;
  curandState state;
  curand_init(kStarts[t].seed, kStarts[t].subsequence, kStarts[t].offset, &state);
  unsigned long long* o = out + t * kValues;
  for (int k = 0; k < 8; ++k) *o++ = curand(&state);
  for (int k = 0; k < 4; ++k) *o++ = bits(curand_uniform(&state));
  for (int k = 0; k < 4; ++k) *o++ = bits(curand_normal(&state));
  const float2 n2 = curand_normal2(&state);
  *o++ = bits(n2.x);
  *o++ = bits(n2.y);
  *o++ = bits(curand_uniform_double(&state));
  *o++ = bits(curand_normal_double(&state));
  *o++ = bits(curand_log_normal(&state, 0.0f, 1.0f));
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  unsigned long long* device = nullptr;
  cudaMalloc(&device, kCount * kValues * sizeof(unsigned long long));
  sample<<<1, 32>>>(device);
  unsigned long long host[kCount * kValues];
  if (cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  Start starts[kCount];
  cudaMemcpyFromSymbol(starts, kStarts, sizeof starts);
  std::FILE* file = std::fopen(argv[1], "w");
  for (int t = 0; t < kCount; ++t) {
    std::fprintf(file, "%llu %llu %llu", starts[t].seed, starts[t].subsequence, starts[t].offset);
    for (int k = 0; k < kValues; ++k) std::fprintf(file, " %llx", host[t * kValues + k]);
    std::fprintf(file, "\n");
  }
  std::fclose(file);
  return 0;
}
