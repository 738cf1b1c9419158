// The grid-stride loop as it should be: start at the global index, stride by the whole grid.
__global__ void scale(const float* in, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = 2.0f * in[i];
  }
}
