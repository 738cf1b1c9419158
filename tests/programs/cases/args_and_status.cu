// Prints its arguments and exits with the number of them: `warpsim exec` passes both through.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void count(int* out, int n) { atomicAdd(out, n > 0 ? 1 : 0); }

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) std::printf("arg %d: %s\n", i, argv[i]);
  int* out;
  cudaMallocManaged(&out, sizeof(int));
  *out = 0;
  count<<<1, 4>>>(out, argc - 1);
  cudaDeviceSynchronize();
  std::fprintf(stderr, "to stderr: %d\n", *out);
  return argc - 1;
}
