// Blocks accumulate into one global array with += (read-modify-write from every block).
__global__ void fold(const int* in, int* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[threadIdx.x] += in[i];  // expect: race
}
