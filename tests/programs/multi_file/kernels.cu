// The device half: a kernel, the host wrapper that launches it, and a static helper named as
// main.cpp's (each file's own).
#include <cuda_runtime.h>

#include "multi_file.h"

namespace {
const char* const kTag = "kernels.cu";
}

static int scale_of() { return 3; }

__global__ void scale(const float* in, float* out, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

int scale_on_device(const float* in, float* out, int n) {
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(d_in, d_out, static_cast<float>(scale_of()), n);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return kTag[0] == 'k' ? scale_of() : -1;
}
