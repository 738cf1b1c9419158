// What a GPU does when the lanes of one converged warp call __ballot_sync with masks that differ
// from lane to lane, as HeCBench's bscan does (mask = the lanes below the caller, so lane 0's mask
// is 0 and no lane names itself): undefined in CUDA (each caller must be in its mask, and every
// lane a mask names must call with the same mask), so only the hardware says what happens. The
// simulator stops such a warp as a deadlock; this prints, per lane, what the GPU returned.
// Built with nvcc and run by tests/shim/record_mask_probes.sh.
#include <cstdio>
#include <cstdlib>

__device__ unsigned lanemask_lt() { return (1u << (threadIdx.x & 31)) - 1u; }

// 0: the mask is the lanes below (bscan); 1: the lanes below and the caller; 2: the lanes above;
// 3: every lane (well defined: the control); 4: no lane (every mask 0); 5: the lanes below, but
// lane 0's mask is its own bit (no mask is empty, only lane 0 names itself); 6: lanes 0-15 in
// every lane (one mask, which lanes 16-31 are not in: the spec's [HW90] case on an H100).
__global__ void ballots(const int* in, unsigned* out, int form) {
  const unsigned lane = threadIdx.x & 31;
  unsigned mask = lanemask_lt();
  if (form == 1) mask |= 1u << lane;
  if (form == 2) mask = ~(mask | (1u << lane));
  if (form == 3) mask = 0xffffffffu;
  if (form == 4) mask = 0u;
  if (form == 5 && lane == 0) mask = 1u;
  if (form == 6) mask = 0x0000ffffu;
  out[threadIdx.x] = __ballot_sync(mask, in[threadIdx.x] > 0);
}

int main(int argc, char** argv) {
  int host_in[32];
  for (int i = 0; i < 32; ++i) host_in[i] = (i * 7) % 5 - 1;  // 0-3 positive, some not
  int* in;
  unsigned* out;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, 32 * sizeof(unsigned));
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  const int only = argc > 1 ? std::atoi(argv[1]) : -1;  // one form (0-6), or all seven
  unsigned predicates = 0;
  for (int i = 0; i < 32; ++i) predicates |= (host_in[i] > 0 ? 1u : 0u) << i;
  if (only <= 0) std::printf("predicates (lanes with in > 0): 0x%08x\n", predicates);
  const char* names[] = {"mask = lanes below the caller (bscan)", "mask = lanes below and the caller",
                         "mask = lanes above the caller", "mask = every lane (well defined)",
                         "mask = 0 in every lane", "mask = lanes below the caller, lane 0's its own bit",
                         "mask = 0x0000ffff in every lane"};
  for (int form = 0; form < 7; ++form) {
    if (only >= 0 && form != only) continue;
    cudaMemset(out, 0, 32 * sizeof(unsigned));
    ballots<<<1, 32>>>(in, out, form);
    const cudaError_t error = cudaDeviceSynchronize();
    std::printf("%s: %s\n", names[form], cudaGetErrorString(error));
    if (error != cudaSuccess) {
      // The error is sticky: the context is gone, so nothing more can run in this process.
      std::printf("  (no lane results: the launch did not complete)\n");
      return 0;
    }
    unsigned result[32];
    cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
    for (int lane = 0; lane < 32; ++lane) {
      std::printf("  lane %2d: 0x%08x%s", lane, result[lane], lane % 4 == 3 ? "\n" : "");
    }
  }
  return 0;
}
