// Thread 0 computes a value for the whole block; the others read it with no barrier.
__global__ void scale_by_first(const float* in, float* out) {
  __shared__ float factor;
  const unsigned t = threadIdx.x;
  if (t == 0) factor = 3.0f + in[0];  // expect: race
  out[t] = factor * in[t];            // expect: race
}
