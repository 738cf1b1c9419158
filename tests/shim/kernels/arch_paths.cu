// Kernels whose code depends on the architecture they are compiled for, as nvcc's device pass
// decides it: __CUDA_ARCH__ and the toolkit's version macros.

// out: __CUDA_ARCH__, __CUDACC__, __NVCC__, CUDART_VERSION, __CUDACC_VER_MAJOR__,
//      __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__, __CUDA_ARCH_LIST__ (0 where undefined).
__global__ void arch_macros(int* out) {
  out[0] = __CUDA_ARCH__;
#ifdef __CUDACC__
  out[1] = __CUDACC__;
#endif
#ifdef __NVCC__
  out[2] = __NVCC__;
#endif
  out[3] = CUDART_VERSION;
  out[4] = __CUDACC_VER_MAJOR__;
  out[5] = __CUDACC_VER_MINOR__;
  out[6] = __CUDACC_VER_BUILD__;
  out[7] = __CUDA_ARCH_LIST__;
}

// One __reduce_add_sync from sm_80 on, a five-step butterfly before.
__global__ void warp_sum(const int* in, int* out) {
  int v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  v = __reduce_add_sync(0xffffffffu, v);
#else
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
#endif
  out[threadIdx.x] = v;
}

// All of its code is for sm_80 and later: compiled for sm_70 it does nothing.
__global__ void ampere_only(int* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, 1);
#endif
}

// Nothing to do, on purpose: no warning.
__global__ void empty_on_purpose(int*) {}

// Written for the host pass only (no __CUDA_ARCH__): on every device architecture it is empty.
__global__ void host_pass_only(int* out) {
#ifndef __CUDA_ARCH__
  out[0] = 1;
#endif
}
