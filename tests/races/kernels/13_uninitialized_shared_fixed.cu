// Every slot of the shared buffer is written before it is read.
__global__ void copy_through_shared(const float* in, float* out) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = t < 32 ? in[t] : 0.0f;
  __syncthreads();
  out[t] = s[t];
}
