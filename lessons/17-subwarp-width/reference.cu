// Reference for lesson 17: each lane's group sums, and what the out-of-group xor returns
// (spec: source lane ^ 8 when it is not above the caller's group, else the caller's own value).
#include <cuda_runtime.h>

__global__ void group_sums_reference(const unsigned* in, unsigned* sum16, unsigned* sum8,
                                     unsigned* sum4, unsigned* xor8) {
  for (int lane = 0; lane < 32; ++lane) {
    sum16[lane] = sum8[lane] = sum4[lane] = 0;
    for (int k = 0; k < 32; ++k) {
      if (k / 16 == lane / 16) sum16[lane] += in[k];
      if (k / 8 == lane / 8) sum8[lane] += in[k];
      if (k / 4 == lane / 4) sum4[lane] += in[k];
    }
    xor8[lane] = (lane & 8) ? in[lane - 8] : in[lane];
  }
}
