// A member mask made by __ballot_sync and handed to a helper, next to an __activemask() that
// happens to hold the same value but is used only as data. Legal code: no diagnostic.
// (Regression: the mask was once reported as activemask_as_mask because the values matched.)
__device__ __noinline__ unsigned broadcast_first(unsigned members, unsigned v) {
  return __shfl_sync(members, v, 0);
}

extern "C" __global__ void ballot_mask_helper(const unsigned* in, unsigned* out) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned lower_half = __ballot_sync(0xffffffffu, lane < 16u);
  unsigned r = 0;
  if (lane < 16u) {
    const unsigned active = __activemask();
    r = (active >> lane) & 1u;
    r += broadcast_first(lower_half, in[threadIdx.x]);
  }
  out[threadIdx.x] = r;
}
