// Writes two ints per thread into dynamic shared memory sized for one per thread.
__global__ void stride_two(int* out) {
  extern __shared__ int slots[];
  slots[threadIdx.x * 2] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = slots[threadIdx.x];
}
