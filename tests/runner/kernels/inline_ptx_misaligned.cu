// A vector store through inline PTX at an address that is not a multiple of its 16 bytes: a GPU
// stops the kernel (CUDA_ERROR_MISALIGNED_ADDRESS), so warpsim stops the launch, saying so.
#include <cuda_runtime.h>

__global__ void misaligned_vector(unsigned* out) {
  unsigned* p = out + 1 + 4 * threadIdx.x;  // 4 bytes past a 16-byte boundary
  asm volatile("st.global.v4.u32 [%0], {%1, %1, %1, %1};" ::"l"(p), "r"(threadIdx.x) : "memory");
}
