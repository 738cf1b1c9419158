// Every lane writes one element past its own: lane 31 writes out[32], one past the end (line 4).
__global__ void shifted_store(float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 1] = static_cast<float>(i);
}
