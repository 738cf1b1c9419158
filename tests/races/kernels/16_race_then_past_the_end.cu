// A race on data[0] (every thread writes it), then, after a barrier, thread 32 reads one past the
// end of `in`: under the checks the out-of-bounds read stops the launch before it happens, and
// the race found before it is reported all the same.
__global__ void race_then_overread(const int* in, int* data, int n) {
  const int t = threadIdx.x;
  data[0] = t;  // expect: race
  __syncthreads();
  int v = in[t];
  if (t == 32) v += in[n];  // expect: bounds
  data[1 + t] = v;
}
