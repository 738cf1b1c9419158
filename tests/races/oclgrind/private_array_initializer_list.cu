// The pattern of Oclgrind's tests/kernels/uninitialized/private_array_initializer_list.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: no_race: a thread's own array, initialised by its initializer list: nothing to report
// launch: --kernel private_array_initializer_list --grid 1 --block 1 --arg f32[4]:zeros
__global__ void private_array_initializer_list(float* output) {
  float scratch[4] = {7.f, 42.f, -1.f, 0.f};
  for (int i = 0; i < 4; ++i) output[i] = scratch[i];
}
