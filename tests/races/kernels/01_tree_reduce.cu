// Shared-memory tree reduction that forgets the __syncthreads inside its loop.
__global__ void tree_reduce(const float* in, float* out) {
  __shared__ float sdata[256];
  const unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];  // expect: race
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}
