// Early exit with warp votes: check that an array is sorted, then find the first element >= key
// (its lower bound), reading 32 elements per round. A vote gives every lane the same answer,
// so the whole warp leaves a loop in the same round and stays converged for the next
// full-mask collective.
#include <cuda_runtime.h>

// result[0]: the first i with data[i] > data[i + 1], or -1 when data is sorted
// result[1]: the first i with data[i] >= key (n when there is none), or -1 when data is not sorted
// result[2], result[3]: the rounds (chunks of 32 elements) each loop read
__global__ void checked_search(const int* data, int n, int key, int* result) {
  int lane = threadIdx.x % 32;

  // 1. Is data sorted? Go on while all lanes see an ordered pair; stop at the first round with
  //    a pair out of order, the rest need not be read.
  int descent = -1, check_rounds = 0;
  for (int base = 0; base < n; base += 32) {
    int i = base + lane;
    bool ordered = i + 1 >= n || data[i] <= data[i + 1];  // the last element has no pair
    ++check_rounds;
    if (!__all_sync(0xffffffff, ordered)) {
      descent = base + __ffs(__ballot_sync(0xffffffff, !ordered)) - 1;  // lowest such lane
      break;
    }
  }

  // 2. Lower bound, only for sorted data: stop in the first round in which any lane has reached
  //    the key.
  int position = descent < 0 ? n : -1, search_rounds = 0;
  if (descent < 0) {  // the same in every lane: they all saw the same votes
    for (int base = 0; base < n; base += 32) {
      int i = base + lane;
      bool reached = i < n && data[i] >= key;
      ++search_rounds;
      if (__any_sync(0xffffffff, reached)) {
        position = base + __ffs(__ballot_sync(0xffffffff, reached)) - 1;  // lowest such lane
        break;
      }
    }
  }

  if (lane == 0) {
    result[0] = descent;
    result[1] = position;
    result[2] = check_rounds;
    result[3] = search_rounds;
  }
}
