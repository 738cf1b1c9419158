// Headers kernel files include besides the CUDA runtime: the driver API's types, the runtime's
// error codes, cuRAND's device API.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <curand_kernel.h>

// out[t] = curand_uniform of lane t's own subsequence; errors[0..2]: the CUresult, cudaError_t
// and CUdeviceptr views of "nothing went wrong", errors[3] the first letter of an error string.
__global__ void headers(float* out, int* errors) {
  curandState state;
  curand_init(1234, threadIdx.x, 0, &state);
  out[threadIdx.x] = curand_uniform(&state);
  if (threadIdx.x == 0) {
    const CUdeviceptr pointer = 0;
    errors[0] = static_cast<int>(CUDA_SUCCESS);
    errors[1] = static_cast<int>(cudaGetLastError());
    errors[2] = static_cast<int>(pointer);
    errors[3] = cudaGetErrorString(cudaErrorMemoryAllocation)[0];
  }
}
