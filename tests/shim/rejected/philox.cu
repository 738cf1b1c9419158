// cuRAND's Philox generator: only XORWOW is simulated, so declaring a Philox state must fail.
#include <curand_kernel.h>
__global__ void uses_philox(float* out) {
  curandStatePhilox4_32_10_t state;
  (void)state;
  out[0] = 0;
}
