// The pattern of Oclgrind's tests/kernels/data-race/local_read_write_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: race: after the barrier each thread writes scratch[l] again while thread 0 reads them all (shared memory)
// launch: --kernel local_read_write_race --grid 1 --block 4 --arg i32[1]:zeros
__global__ void local_read_write_race(int* data) {
  __shared__ int scratch[4];
  const int l = threadIdx.x;
  scratch[l] = 0;
  __syncthreads();
  scratch[l] = l;  // expect: race
  if (l == 0) {
    int x = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) x += scratch[i];  // expect: race
    *data = x;
  }
}
