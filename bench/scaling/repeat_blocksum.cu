// Vector add, then a shuffle block sum, over N floats (default 4M), each launched three times and
// timed (bench/scaling/run.sh).
#include <cstdio>
#include <vector>
#include <chrono>
#include <cuda_runtime.h>
static double now(){return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();}
__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void blockSum(const float* in, float* partial, int n) {
  __shared__ float warpSums[32];
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warpSums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4 << 20;
  std::vector<float> in(n, 1.0f);
  float *a, *b, *c, *p;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&c, n * 4); cudaMalloc(&p, n / 256 * 4 + 4);
  cudaMemcpy(a, in.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, in.data(), n * 4, cudaMemcpyHostToDevice);
  for (int r = 0; r < 3; ++r) {
    double t = now();
    vectorAdd<<<n / 256, 256>>>(a, b, c, n);
    cudaDeviceSynchronize();
    printf("add launch %d: %.4f s\n", r, now() - t);
  }
  for (int r = 0; r < 3; ++r) {
    double t = now();
    blockSum<<<n / 256, 256>>>(c, p, n);
    cudaDeviceSynchronize();
    printf("sum launch %d: %.4f s\n", r, now() - t);
  }
}
