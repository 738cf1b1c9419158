// The pattern of Oclgrind's tests/kernels/data-race/uniform_write_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: race: relabelled: every thread writes 0 to data[0]; Oclgrind accepts equal values, CUDA's memory model makes any two unordered non-atomic writes of one location a data race
// launch: --kernel uniform_write_race --grid 1 --block 4 --arg i32[1]:-1
__global__ void uniform_write_race(int* data) {
  *data = 0;  // expect: race
}
