// Lesson 17: sub-warp groups. The last argument of a shuffle, width (a power of two up to 32),
// splits the warp into independent groups of `width` lanes: lane numbers and offsets are taken
// within the group, and a shuffle that would leave the group returns the caller's own value.
#include <cuda_runtime.h>

__global__ void group_sums(const unsigned* in, unsigned* sum16, unsigned* sum8,
                           unsigned* sum4, unsigned* xor8) {
  const int lane = threadIdx.x % 32;
  const unsigned v = in[lane];  // unsigned: sums of large values (preset bits) wrap, never overflow

  // Two groups of 16 (lanes 0-15 and 16-31), reduced by shifting down: offsets 8, 4, 2, 1. Where
  // lane + offset lies past the end of the caller's group, the caller gets its own value back,
  // so nothing flows from group 1 into group 0, and the first lane of each group (0 and 16)
  // ends with its group's sum.
  unsigned s16 = v;
  for (int offset = 8; offset > 0; offset /= 2) {
    s16 += __shfl_down_sync(0xffffffff, s16, offset, 16);  // step: down, width 16
  }
  // Source lane 0 is counted within the group: lanes 16-31 read lane 16, not lane 0.
  sum16[lane] = __shfl_sync(0xffffffff, s16, 0, 16);  // step: broadcast, width 16

  // Four groups of 8, butterfly: 3 rounds. (An xor with an offset below the width never leaves
  // the group anyway; here the width matters only for the last shuffle of the kernel.)
  unsigned s8 = v;
  for (int offset = 4; offset > 0; offset /= 2) {
    s8 += __shfl_xor_sync(0xffffffff, s8, offset, 8);  // step: width 8
  }
  sum8[lane] = s8;

  // Eight groups of 4 (quads), butterfly: 2 rounds.
  unsigned s4 = v;
  for (int offset = 2; offset > 0; offset /= 2) {
    s4 += __shfl_xor_sync(0xffffffff, s4, offset, 4);  // step: width 4
  }
  sum4[lane] = s4;

  // A laneMask at or above the width, as in a 32-lane loop copied with width 8 added. lane ^ 8
  // is never in the caller's own group of 8: the upper half of each 16 reads lane - 8, a lane
  // of the group BELOW, and the lower half gets its own value back.
  xor8[lane] = __shfl_xor_sync(0xffffffff, v, 8, 8);  // step: mask >= width
}
