// Lane 3 writes through a null pointer (line 7).
__global__ void null_store(int* out) {
  const int lane = threadIdx.x % 32;
  int* target = out;
  if (lane == 3) target = nullptr;
  __syncwarp();
  target[lane] = lane;
}
