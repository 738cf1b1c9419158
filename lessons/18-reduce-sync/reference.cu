// Reference for lesson 18: each reduction as a plain loop over the 32 values.
#include <cuda_runtime.h>

__global__ void warp_reduce_reference(const int* in, int* sum_loop, int* sum, int* min, int* max,
                                      unsigned* umax, int* sum_positive) {
  int total = 0, lo = in[0], hi = in[0], positive_total = 0;
  unsigned uhi = 0;
  for (int i = 0; i < 32; ++i) {
    total += in[i];
    if (in[i] < lo) lo = in[i];
    if (in[i] > hi) hi = in[i];
    if (static_cast<unsigned>(in[i]) > uhi) uhi = static_cast<unsigned>(in[i]);
    if (in[i] > 0) positive_total += in[i];
  }
  for (int lane = 0; lane < 32; ++lane) {
    sum_loop[lane] = sum[lane] = total;
    min[lane] = lo;
    max[lane] = hi;
    umax[lane] = uhi;
    if (in[lane] > 0) sum_positive[lane] = positive_total;  // the other lanes do not write
  }
}
