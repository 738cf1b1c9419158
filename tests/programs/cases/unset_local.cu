// A local set on one path only (the bug: lanes 16-31 never set `best`), stored to global memory.
// Under --check uninit the build gives never-set locals the pattern 0xfefefefe; a store of that
// whole pattern is named with its lanes and line (uninitialized_local_stored). The other kernel
// stores values every lane set, 0xfefefefe among them only where the program computed it.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void pick(const float* in, float* out) {
  float best;
  if (threadIdx.x < 16u) best = in[threadIdx.x] * 2.0f;
  out[threadIdx.x] = best;
}

__global__ void fill(unsigned* out) { out[threadIdx.x] = threadIdx.x == 3u ? 0xfefefefeu : 7u; }

int main() {
  float *in, *out;
  unsigned* filled;
  cudaMalloc(&in, 32 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMalloc(&filled, 32 * sizeof(unsigned));
  float host[32];
  for (int i = 0; i < 32; ++i) host[i] = static_cast<float>(i);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  pick<<<1, 32>>>(in, out);
  fill<<<1, 32>>>(filled);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("out[1] %g\n", host[1]);
  cudaFree(in);
  cudaFree(out);
  cudaFree(filled);
  return 0;
}
