// Tiles loaded in a loop: the barrier after the load is there, the one before the next load is not.
__global__ void neighbour_sums(const float* in, float* out, int tiles) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    s[t] = in[k * 64 + t];  // expect: race
    __syncthreads();
    acc += s[(t + 1) % 64];  // expect: race
  }
  out[t] = acc;
}
