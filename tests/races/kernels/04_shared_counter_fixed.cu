// The shared counter, counted with atomicAdd.
__global__ void count_positive(const int* in, int* out) {
  __shared__ int count;
  const unsigned t = threadIdx.x;
  if (t == 0) count = 0;
  __syncthreads();
  if (in[t] > 0) atomicAdd(&count, 1);
  __syncthreads();
  if (t == 0) out[0] = count;
}
