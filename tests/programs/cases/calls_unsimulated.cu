// A program that reaches what warpsim does not simulate: a mipmapped CUDA array (textures). It
// compiles and runs up to the call, which stops it with the API's name and this file's line.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void touch(int* x) { x[threadIdx.x] = 1; }

int main(int argc, char**) {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  touch<<<1, 32>>>(d);
  std::printf("before the array\n");
  cudaMipmappedArray_t array = nullptr;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  if (argc < 5) cudaMallocMipmappedArray(&array, &desc, make_cudaExtent(64, 64, 0), 4);
  std::printf("PASSED\n");
  return 0;
}
