// The pattern of Oclgrind's tests/kernels/uninitialized/uninitialized_global_buffer.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_global: output = *input, where input is a cudaMalloc'd buffer nothing wrote (a whole program, run with `warpsim exec --check all`)
// launch: exec
#include <cstdio>

__global__ void uninitialized_global_buffer(const float* input, float* output) {
  output[blockIdx.x * blockDim.x + threadIdx.x] = *input;
}

int main() {
  float *input, *output, result = 0;
  cudaMalloc(&input, sizeof(float));
  cudaMalloc(&output, sizeof(float));
  uninitialized_global_buffer<<<1, 1>>>(input, output);
  cudaMemcpy(&result, output, sizeof result, cudaMemcpyDeviceToHost);
  std::printf("%g\n", result);
  return 0;
}
