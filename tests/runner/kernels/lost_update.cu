// A warp-aggregated count with a lost update (run --schedules): each warp's leader reads the
// total, the warp votes, and the leader stores total + votes instead of atomicAdd. The default
// order gives the right count; seeded warp orders lose updates.
extern "C" __global__ void count_flags(const int* flags, unsigned* total) {
  const unsigned lane = threadIdx.x & 31u;
  unsigned old = 0;
  if (lane == 0) old = *total;
  old = __shfl_sync(0xffffffffu, old, 0);
  const unsigned votes = __ballot_sync(0xffffffffu, flags[blockIdx.x * blockDim.x + threadIdx.x] != 0);
  if (lane == 0) *total = old + __popc(votes);
}
