// A kernel that writes through a null pointer: the program dies, the report names the launch.
#include <cuda_runtime.h>

__global__ void writeNull(int* out) {
  int* nowhere = nullptr;
  nowhere[threadIdx.x + (out != nullptr ? 0 : 1)] = 1;
}

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  writeNull<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
