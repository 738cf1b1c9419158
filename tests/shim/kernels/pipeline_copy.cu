// Asynchronous copies into shared memory with the pipeline primitives (cp.async on sm_80+):
// each thread copies 16 bytes, waits, the block synchronises, and each reads a neighbour's.
#include <cuda_pipeline.h>

__global__ void staged(const int4* in, int4* out) {
  __shared__ int4 tile[64];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

// zfill: the last 8 of 16 bytes are zeros, not copied.
__global__ void zero_filled(const int4* in, int4* out) {
  __shared__ int4 tile[64];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], 16, 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// A 16-byte copy from an address that is 4 bytes into an int4: misaligned, as on a GPU.
__global__ void misaligned(const int4* in, int4* out) {
  __shared__ int4 tile[64];
  const char* from = reinterpret_cast<const char*>(&in[threadIdx.x]) + 4;
  __pipeline_memcpy_async(&tile[threadIdx.x], from, 16);
  __pipeline_wait_prior(0);
  out[threadIdx.x] = tile[threadIdx.x];
}
