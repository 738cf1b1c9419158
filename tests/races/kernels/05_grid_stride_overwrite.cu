// A grid-stride loop that strides by the block, not the grid: every block writes every element.
__global__ void scale(const float* in, float* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    out[i] = 2.0f * in[i];  // expect: race
  }
}
