// What checked_search must compute, one element at a time.
#include <cuda_runtime.h>

__global__ void checked_search_reference(const int* data, int n, int key, int* result) {
  int descent = -1;  // the first i with data[i] > data[i + 1]
  for (int i = 0; i + 1 < n; ++i) {
    if (data[i] > data[i + 1]) {
      descent = i;
      break;
    }
  }
  int position = -1;  // the first i with data[i] >= key, searched only in sorted data
  if (descent < 0) {
    position = n;
    for (int i = 0; i < n; ++i) {
      if (data[i] >= key) {
        position = i;
        break;
      }
    }
  }
  // The warp reads 32 elements per round, up to the round that holds the answer.
  int all_rounds = (n + 31) / 32;
  result[0] = descent;
  result[1] = position;
  result[2] = descent < 0 ? all_rounds : descent / 32 + 1;
  result[3] = descent >= 0 ? 0 : position < n ? position / 32 + 1 : all_rounds;
}
