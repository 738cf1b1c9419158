// The pattern of Oclgrind's tests/kernels/data-race/intergroup_hidden_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: race: block 0 reads data[0], block 1 writes it: blocks are never ordered (hidden when block 0 happens to run first)
// launch: --kernel intergroup_hidden_race --grid 2 --block 1 --arg i32[1]:zeros --arg i32[2]:zeros
__global__ void intergroup_hidden_race(int* data, int* output) {
  const int group = blockIdx.x;
  output[group] = data[0];  // expect: race
  if (group == 1) data[0] = group;  // expect: race
}
