// A shared-memory histogram that increments its bins with ++.
__global__ void histogram8(const int* in, int* out) {
  __shared__ int bins[8];
  const unsigned t = threadIdx.x;
  if (t < 8) bins[t] = 0;
  __syncthreads();
  bins[in[t] & 7]++;  // expect: race
  __syncthreads();
  if (t < 8) out[t] = bins[t];
}
