// One byte per thread: neighbours' bytes share a word, which is no race; reading the next
// thread's byte before the barrier is.
__global__ void next_flag(const int* in, int* out) {
  __shared__ unsigned char flags[64];
  const unsigned t = threadIdx.x;
  flags[t] = in[t] > 0 ? 1 : 0;  // expect: race
  out[t] = flags[(t + 1) % 64];  // expect: race
}
