// The block scan with a barrier between reading the neighbour and writing its own slot.
__global__ void block_scan(const int* in, int* out) {
  __shared__ int s[128];
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    const int v = t >= offset ? s[t - offset] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  out[t] = s[t];
}
