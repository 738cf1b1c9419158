// Kernels for the device-trace suites: plain CUDA C++, compiled here against the host shim. The
// tests name some of these lines; keep them where they are.
#pragma once

__global__ void dt_butterfly(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);  // line 7
  out[threadIdx.x] = v;
}

__global__ void dt_ballot_barrier(const int* in, int* out) {
  const unsigned ballot = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);  // line 12
  const int count = __syncthreads_count(in[threadIdx.x] > 0);              // line 13
  __syncthreads();                                                         // line 14
  out[threadIdx.x] = __popc(ballot) + count;
}

// Lanes n.. exit first; lanes that read them through the full mask get undefined results.
__global__ void dt_tail_shfl_down(const int* in, int* out, int n) {
  if (static_cast<int>(threadIdx.x) >= n) return;
  int v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 4);  // line 22
  out[threadIdx.x] = v;
}

__global__ void dt_match_all(const long long* in, unsigned* out, int* pred) {
  int p = 0;
  out[threadIdx.x] = __match_all_sync(0xffffffff, in[threadIdx.x], &p);  // line 28
  pred[threadIdx.x] = p;
}
