// What warp_argmax must compute: the largest and smallest of 32 values, each with the first
// position that holds it.
#include <cuda_runtime.h>

__global__ void warp_argmax_reference(const int* in, int* result) {
  int argmax = 0, argmin = 0;
  for (int i = 1; i < 32; ++i) {
    if (in[i] > in[argmax]) argmax = i;  // strictly greater: an equal value later does not win
    if (in[i] < in[argmin]) argmin = i;
  }
  result[0] = in[argmax];
  result[1] = argmax;
  result[2] = in[argmin];
  result[3] = argmin;
}
