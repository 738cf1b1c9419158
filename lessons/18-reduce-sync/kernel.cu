// Lesson 18: the warp reduce intrinsics (compute capability 8.0 and later). __reduce_add_sync,
// _min_, _max_ (int and unsigned) and _and_, _or_, _xor_ (unsigned) give every lane of the mask
// the reduction of all their values in one instruction (redux.sync), where a shuffle loop takes
// five rounds. They work on 32-bit integers only: floats still need the shuffle loop.
#include <cuda_runtime.h>

__global__ void warp_reduce(const int* in, int* sum_loop, int* sum, int* min, int* max,
                            unsigned* umax, int* sum_positive) {
  const int lane = threadIdx.x % 32;
  const int v = in[lane];

  // The shuffle loop of lesson 4: five rounds, after which every lane holds the sum.
  int s = v;
  for (int offset = 16; offset > 0; offset /= 2) {
    s += __shfl_xor_sync(0xffffffff, s, offset);  // step: shuffle loop
  }
  sum_loop[lane] = s;

  // The same sum in one step, and the minimum and maximum in one step each.
  sum[lane] = __reduce_add_sync(0xffffffff, v);  // step: reduce add
  min[lane] = __reduce_min_sync(0xffffffff, v);  // step: reduce min
  max[lane] = __reduce_max_sync(0xffffffff, v);  // step: reduce max
  // The unsigned overload compares as unsigned numbers: every negative int becomes a value of
  // 2^31 or more (-1 is 4294967295), larger than any positive int.
  umax[lane] = __reduce_max_sync(0xffffffff, static_cast<unsigned>(v));  // step: reduce umax

  // A sum over some lanes only: the mask names the lanes that will call, computed BEFORE the
  // branch by a ballot that every lane takes part in.
  const unsigned positive = __ballot_sync(0xffffffff, v > 0);  // step: ballot
  if (v > 0) sum_positive[lane] = __reduce_add_sync(positive, v);  // step: positive sum
}
