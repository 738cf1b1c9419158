// Only the first warp fills the shared buffer; the second warp reads slots nobody wrote.
__global__ void copy_through_shared(const float* in, float* out) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  if (t < 32) s[t] = in[t];
  __syncthreads();
  out[t] = s[t];  // expect: uninit
}
