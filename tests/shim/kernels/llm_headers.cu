// What LLM kernel libraries use from the toolkit: <cuda_fp8.h> (candle, flashinfer), the math
// API's functions libm lacks (normcdf, sinpi, norm3df), memcpy without <string.h> (nvcc's
// cuda_runtime.h brings it), cudaMemAdvise's advice and a launch config's gridDim set in host
// code (flashinfer's launchers).
#include <cuda_fp8.h>

__global__ void llm_headers(float* out) {
  const unsigned lane = threadIdx.x;
  float copy = 0;
  memcpy(&copy, out, sizeof copy);  // out[0]: 0
  if (lane != 0) return;
  const __nv_fp8_e4m3 e4m3(0.3f);  // 3 mantissa bits: 0.3 rounds to 1.25 * 2^-2
  const __nv_fp8_e5m2 e5m2(-3.3f);  // 2 mantissa bits: -3.3 rounds to -1.75 * 2^1
  out[0] = float(e4m3);
  out[1] = float(e5m2);
  out[2] = float(normcdf(0.0));
  out[3] = float(sinpi(0.5));
  out[4] = norm3df(2.0f, 3.0f, 6.0f);
  out[5] = float(__nv_fp8_e4m3(1000.0f)) + copy;  // past e4m3's largest finite value: saturates
}

// Host code: compiles with the shim's names (never called by the test).
inline float host_config_grid(const void* pointer) {
  cudaLaunchConfig_t config = {};
  config.gridDim = 8;
  config.blockDim = dim3(32, 4);
  cudaMemAdvise(pointer, 4, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
  return float(config.gridDim.x * config.blockDim.y);
}
