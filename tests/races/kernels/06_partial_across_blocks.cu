// Each block stores its partial sum, then reads its neighbour block's in the same launch.
__global__ void pair_sums(const float* in, float* partial, float* out) {
  __shared__ float sum;
  const unsigned t = threadIdx.x;
  if (t == 0) sum = 0.0f;
  __syncthreads();
  atomicAdd(&sum, in[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  if (t == 0) partial[blockIdx.x] = sum;  // expect: race
  if (t == 0 && blockIdx.x + 1 < gridDim.x) {
    out[blockIdx.x] = partial[blockIdx.x] + partial[blockIdx.x + 1];  // expect: race
  }
}
