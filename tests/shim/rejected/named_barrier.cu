// A named barrier other than 0: not simulated, so the launch must stop, naming the line.
__global__ void named_barrier(int* out) {
  __barrier_sync(1);
  out[threadIdx.x] = 1;
}
