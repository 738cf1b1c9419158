// A __grid_constant__ parameter is a copy on the lane's stack in warpsim, like a local variable:
// asking whether a stack address is local cannot be answered truthfully in this file, so the
// launch stops, saying so.
__global__ void ask_grid_constant(const __grid_constant__ int scale, int* out) {
  int local = scale;
  out[threadIdx.x] = static_cast<int>(__isGlobal(out)) + static_cast<int>(__isLocal(&local));
}
