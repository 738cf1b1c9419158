// The last-warp reduction as it must be written since Volta: read, __syncwarp, write, __syncwarp.
__device__ void warp_reduce(volatile float* s, unsigned t) {
  for (unsigned offset = 32; offset > 0; offset >>= 1) {
    const float v = s[t] + s[t + offset];
    __syncwarp();
    s[t] = v;
    __syncwarp();
  }
}

__global__ void reduce64(const float* in, float* out) {
  __shared__ float sdata[96];
  const unsigned t = threadIdx.x;
  sdata[t] = in[t];
  if (t < 32) sdata[64 + t] = 0.0f;  // what the last rounds read past the 64 inputs
  __syncthreads();
  if (t < 32) warp_reduce(sdata, t);
  if (t == 0) out[0] = sdata[0];
}
