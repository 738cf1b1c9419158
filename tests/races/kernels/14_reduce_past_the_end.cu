// A tree reduction of 48 threads that starts at 32: threads 0-15 read slots 48-63 nobody wrote.
__global__ void reduce48(const float* in, float* out) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned stride = 32; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];  // expect: uninit
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}
