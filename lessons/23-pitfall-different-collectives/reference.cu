// Reference for lesson 23: two phases of odd-even transposition sort, as plain loops. The buggy
// default preset never finishes (deadlock); the preset fixed matches this.
#include <cuda_runtime.h>

__global__ void sort_phases_reference(const int* in, int* out) {
  for (int i = 0; i < 32; ++i) out[i] = in[i];
  for (int phase = 0; phase < 2; ++phase) {
    for (int i = phase; i + 1 < 32; i += 2) {  // pairs (i, i + 1): phase 0 from 0, phase 1 from 1
      if (out[i] > out[i + 1]) {
        const int t = out[i];
        out[i] = out[i + 1];
        out[i + 1] = t;
      }
    }
  }
}
