// A device query in the style of the deviceQuery sample: the properties a program sizes its
// launches with, then a launch sized from them (one warp per multiprocessor).
#include "check.cuh"

__global__ void fill(int* out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  int device = -1;
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  int warp = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // The name and sizes differ between devices: they go to stderr, not to the compared stdout.
  std::fprintf(stderr, "device %d of %d: %s, compute capability %d.%d, %d multiprocessors\n", device,
               count, prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  std::printf("warpSize %d, max threads per block %d, max block dims %d x %d x %d\n", prop.warpSize,
              prop.maxThreadsPerBlock, prop.maxThreadsDim[0], prop.maxThreadsDim[1],
              prop.maxThreadsDim[2]);
  int* out;
  CHECK(cudaMalloc(&out, sms * warp * sizeof(int)));
  fill<<<sms, warp>>>(out, 7);
  CHECK(cudaGetLastError());
  int last = 0;
  CHECK(cudaMemcpy(&last, out + sms * warp - 1, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(out));
  const bool passed = count >= 1 && warp == 32 && prop.warpSize == 32 && prop.major >= 7 &&
                      prop.maxThreadsPerBlock == 1024 && sms == prop.multiProcessorCount &&
                      last == 7;
  return report(passed);
}
