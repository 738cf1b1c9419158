// The 48-thread reduction pads its shared buffer with zeros first.
__global__ void reduce48(const float* in, float* out) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  if (t < 16) s[48 + t] = 0.0f;
  __syncthreads();
  for (unsigned stride = 32; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}
