// Lane 0 spins forever without any warp-level call (line 7); the others finish.
__global__ void spin(int* flag) {
  if (threadIdx.x == 0) {
    volatile int* f = flag;
    while (f[0] == 0) {
      // waits for a value that no one writes
    }
  }
}
