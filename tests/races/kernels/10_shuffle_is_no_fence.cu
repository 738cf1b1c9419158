// A shuffle between a lane's write to shared memory and its neighbour's read orders nothing.
__global__ void rotate(const int* in, int* out) {
  __shared__ int s[32];
  const unsigned t = threadIdx.x;
  s[t] = 2 * in[t];  // expect: race
  const int first = __shfl_sync(0xffffffffu, in[t], 0);
  out[t] = s[(t + 1) % 32] + 0 * first;  // expect: race
}
