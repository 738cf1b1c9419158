// One byte per thread, published by a barrier before any thread reads its neighbour's.
__global__ void next_flag(const int* in, int* out) {
  __shared__ unsigned char flags[64];
  const unsigned t = threadIdx.x;
  flags[t] = in[t] > 0 ? 1 : 0;
  __syncthreads();
  out[t] = flags[(t + 1) % 64];
}
