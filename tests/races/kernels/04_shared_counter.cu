// Two warps count positive inputs in one shared counter with +=.
__global__ void count_positive(const int* in, int* out) {
  __shared__ int count;
  const unsigned t = threadIdx.x;
  if (t == 0) count = 0;
  __syncthreads();
  if (in[t] > 0) count += 1;  // expect: race
  __syncthreads();
  if (t == 0) out[0] = count;
}
