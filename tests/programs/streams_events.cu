// Two streams, each copying its half in, scaling it with a kernel launched on that stream (with
// dynamic shared memory: the full <<<grid, block, shared, stream>>> form) and copying it back;
// events around the whole and cudaEventElapsedTime (printed to stderr: timings differ by device).
#include "check.cuh"

__global__ void scaleThroughShared(float* data, float factor, int n) {
  extern __shared__ float staging[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  staging[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n) data[i] = staging[blockDim.x - 1 - threadIdx.x] * 0.0f + staging[threadIdx.x] * factor;
}

int main() {
  const int n = 4096, half = n / 2, threads = 128;
  float* host;
  CHECK(cudaMallocHost(&host, n * sizeof(float)));
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  // The C API's cudaMallocHost through a pointer of its type, as thrust's memory_resource.h takes it.
  cudaError_t (*mallocHost)(void**, size_t) = cudaMallocHost;
  void* scratch = nullptr;
  CHECK(mallocHost(&scratch, 64));
  CHECK(cudaFreeHost(scratch));
  float* device;
  CHECK(cudaMalloc(&device, n * sizeof(float)));
  cudaStream_t streams[2];
  for (cudaStream_t& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int s = 0; s < 2; ++s) {
    float* part = device + s * half;
    CHECK(cudaMemcpyAsync(part, host + s * half, half * sizeof(float), cudaMemcpyHostToDevice,
                          streams[s]));
    scaleThroughShared<<<half / threads, threads, threads * sizeof(float), streams[s]>>>(
        part, s == 0 ? 2.0f : 3.0f, half);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(host + s * half, part, half * sizeof(float), cudaMemcpyDeviceToHost,
                          streams[s]));
  }
  CHECK(cudaEventRecord(stop));
  for (cudaStream_t s : streams) CHECK(cudaStreamSynchronize(s));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::fprintf(stderr, "two streams took %.3f ms\n", ms);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    if (host[i] != static_cast<float>(i) * (i < half ? 2.0f : 3.0f)) ++wrong;
  }
  std::printf("two streams, %d elements: %d wrong, elapsed time %s\n", n, wrong,
              ms >= 0 ? "measured" : "missing");
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  for (cudaStream_t s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(device));
  CHECK(cudaFreeHost(host));
  return report(wrong == 0 && ms >= 0);
}
