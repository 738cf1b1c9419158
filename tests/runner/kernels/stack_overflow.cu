// Unbounded recursion with 4 KiB frames: the lane overflows its fiber stack in depth() (line 3).
__device__ int depth(int n) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(n);
  return depth(n + 1) + frame[0];
}

__global__ void recurse(int* out) { out[threadIdx.x] = depth(0); }
