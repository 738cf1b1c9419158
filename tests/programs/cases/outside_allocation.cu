// Kernels that step outside a cudaMalloc'd block. `before`: lane 0 writes out[-1] (in the bytes
// before the block, no guard page: found after the launch). By default lane 0 of block 1 reads
// in[64], one past the end of a block of 64 ints (256 bytes, so its end abuts the guard page):
// the read is recorded and goes on, as on a GPU. `write-after`: it writes out[64] there.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__global__ void shiftBack(int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i - 1] = i;
}

__global__ void readAhead(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + (i == 32 ? 32 : 0)];
}

__global__ void writeAhead(int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + (i == 32 ? 32 : 0)] = i;
}

int main(int argc, char** argv) {
  const bool before = argc > 1 && std::strcmp(argv[1], "before") == 0;
  const bool write_after = argc > 1 && std::strcmp(argv[1], "write-after") == 0;
  int *in, *out;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  if (before) {
    shiftBack<<<2, 32>>>(out);
  } else if (write_after) {
    writeAhead<<<2, 32>>>(out);
  } else {
    readAhead<<<2, 32>>>(in, out);
  }
  cudaDeviceSynchronize();
  int host[64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("out[0] = %d\n", host[0]);
  return 0;
}
