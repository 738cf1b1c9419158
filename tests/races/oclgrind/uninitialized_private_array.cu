// The pattern of Oclgrind's tests/kernels/uninitialized/uninitialized_private_array.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_private: scratch[2] of a thread's own array is never written (indices 0, 1, 1, 3), and is stored to output[2]
// launch: --kernel uninitialized_private_array --grid 1 --block 1 --arg u32[4]:0,1,1,3 --arg f32[4]:zeros
__global__ void uninitialized_private_array(const unsigned* indices, float* output) {
  float scratch[4];
  for (int i = 0; i < 4; ++i) scratch[indices[i]] = i;
  for (int i = 0; i < 4; ++i) output[i] = scratch[i];  // expect: uninit_local
}
