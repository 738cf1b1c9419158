// Reference for lesson 19: tile sums by plain loops; the positive values appended in lane order
// after the *count entries already in the list; rank = position among the positive lanes.
#include <cuda_runtime.h>

__global__ void tiles_and_groups_reference(const int* in, int* sum16, int* sum8, int* sum4,
                                           int* rank, int* list, int* count) {
  for (int i = 0; i < 32; ++i) {
    sum16[i] = sum8[i] = sum4[i] = 0;
    for (int k = 0; k < 32; ++k) {
      if (k / 16 == i / 16) sum16[i] += in[k];
      if (k / 8 == i / 8) sum8[i] += in[k];
      if (k / 4 == i / 4) sum4[i] += in[k];
    }
  }
  int positives = 0;
  for (int i = 0; i < 32; ++i) {
    if (in[i] > 0) {
      rank[i] = positives;  // the other lanes keep what rank held
      list[*count + positives] = in[i];
      ++positives;
    }
  }
  *count += positives;
}
