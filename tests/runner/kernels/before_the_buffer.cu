// Accesses one element before a buffer, which has no guard page of its own (line 6: lane 0 of
// block 0 writes out[-1]; line 12: lane 0 reads in[-1]).
__global__ void shifted_back_store(float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // expect: out_of_bounds
  out[i - 1] = static_cast<float>(i);
}

__global__ void shifted_back_copy(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // expect: out_of_bounds
  out[i] = in[i - 1];
}
