// Barrier 0 by its sm_30 name, and the bool forms of the block votes.
// out[t] = syncthreads_count(t < 10) + 100 * syncthreads_and(true) + 1000 * syncthreads_or(t == 5),
// after __barrier_sync(0) and __barrier_sync_count(0, blockDim.x).
__global__ void barriers(int* out) {
  const unsigned t = threadIdx.x;
  __barrier_sync(0);
  __barrier_sync_count(0, blockDim.x);
  out[t] = syncthreads_count(t < 10) + 100 * syncthreads_and(true) + 1000 * syncthreads_or(t == 5);
}
