// What warp_scan must compute: running sums of the 32 inputs, including and excluding each one.
#include <cuda_runtime.h>

__global__ void warp_scan_reference(const int* in, int* inclusive, int* exclusive) {
  int sum = 0;
  for (int i = 0; i < 32; ++i) {
    exclusive[i] = sum;  // everything before i
    sum += in[i];
    inclusive[i] = sum;  // everything up to and including i
  }
}
