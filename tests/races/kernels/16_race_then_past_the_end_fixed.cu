// The fix: one thread writes data[0], and the last element read is in[n - 1].
__global__ void race_then_overread(const int* in, int* data, int n) {
  const int t = threadIdx.x;
  if (t == 0) data[0] = t;
  __syncthreads();
  int v = in[t];
  if (t == 32) v += in[n - 1];
  data[1 + t] = v;
}
