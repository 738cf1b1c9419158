// Every lane writes data[0] (a data race on line 4), then spins on a flag that nothing sets
// (line 6): `run --check races --timeout` reports the race with the timeout.
__global__ void race_then_spin(int* data, int* flag) {
  data[0] = threadIdx.x;
  __syncthreads();
  while (flag[0] == 0) {
  }
}
