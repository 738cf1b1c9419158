// The pre-Volta warp-synchronous last-warp reduction: volatile shared memory, no __syncwarp.
__device__ void warp_reduce(volatile float* s, unsigned t) {
  s[t] += s[t + 32];  // expect: race
  s[t] += s[t + 16];  // expect: race
  s[t] += s[t + 8];   // expect: race
  s[t] += s[t + 4];   // expect: race
  s[t] += s[t + 2];   // expect: race
  s[t] += s[t + 1];   // expect: race
}

__global__ void reduce64(const float* in, float* out) {
  __shared__ float sdata[64];
  const unsigned t = threadIdx.x;
  sdata[t] = in[t];
  __syncthreads();
  if (t < 32) warp_reduce(sdata, t);
  if (t == 0) out[0] = sdata[0];
}
