// What both sort kernels must compute: the 32 (key, value) pairs in ascending order of key, equal
// keys in ascending order of value. The keys-only presets pass all-zero values, which stay zero,
// so one reference serves both kernels.
#include <cuda_runtime.h>

__global__ void bitonic_sort_reference(int* keys, int* vals) {
  for (int i = 1; i < 32; ++i) {  // insertion sort
    int key = keys[i], val = vals[i];
    int j = i - 1;
    while (j >= 0 && (keys[j] > key || (keys[j] == key && vals[j] > val))) {
      keys[j + 1] = keys[j];
      vals[j + 1] = vals[j];
      --j;
    }
    keys[j + 1] = key;
    vals[j + 1] = val;
  }
}
