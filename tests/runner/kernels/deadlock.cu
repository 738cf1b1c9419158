// Lane 0 waits in a shuffle for lane 1, which waits at __syncthreads for lane 0: no progress.
__global__ void stuck(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x == 0) {
    v = __shfl_sync(0x3u, v, 1);
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = v;
}
