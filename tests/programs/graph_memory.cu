// Graph memory as the device reports it (cudaDeviceGetGraphMemAttribute): a graph that allocates
// 4000 bytes, fills them and frees them. Nothing is backed when the graph is instantiated; its
// launches back the allocation with physical memory that stays with the graphs after the free
// node, until cudaDeviceGraphMemTrim gives it back; the high watermarks stay until reset to 0.
// A cudaMalloc'd buffer filled by a <<<>>> launch counts for none of it.
#include "check.cuh"

__global__ void fill(float* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

struct Totals {
  unsigned long long used = 0, used_high = 0, reserved = 0, reserved_high = 0;
};

static Totals totals(const char* when) {
  Totals t;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &t.used));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &t.used_high));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &t.reserved));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &t.reserved_high));
  std::printf("%-30s used %llu (high %llu), reserved %llu (high %llu)\n", when, t.used,
              t.used_high, t.reserved, t.reserved_high);
  return t;
}

int main() {
  const int n = 1000;
  const unsigned long long bytes = n * sizeof(float);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  // Ordinary device memory is no graph memory: a cudaMalloc'd buffer, filled by a launch.
  float* plain;
  CHECK(cudaMalloc(&plain, bytes));
  fill<<<4, 256, 0, stream>>>(plain, n);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  const Totals start = totals("start");

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.bytesize = bytes;
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  cudaGraphNode_t allocNode, fillNode, freeNode;
  CHECK(cudaGraphAddMemAllocNode(&allocNode, graph, nullptr, 0, &alloc));
  float* p = static_cast<float*>(alloc.dptr);
  int count = n;
  void* args[] = {&p, &count};
  cudaKernelNodeParams kernel = {};
  kernel.func = (void*)fill;
  kernel.gridDim = dim3(4);
  kernel.blockDim = dim3(256);
  kernel.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&fillNode, graph, &allocNode, 1, &kernel));
  CHECK(cudaGraphAddMemFreeNode(&freeNode, graph, &fillNode, 1, p));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const Totals instantiated = totals("instantiated");

  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  const Totals launched = totals("launched twice (alloc, free)");
  CHECK(cudaDeviceGraphMemTrim(0));
  const Totals trimmed = totals("trimmed");
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  const Totals again = totals("launched again");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaDeviceGraphMemTrim(0));
  const Totals destroyed = totals("destroyed and trimmed");
  unsigned long long zero = 0;
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
  const Totals reset = totals("high watermarks reset");
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(plain));

  const bool passed = start.used == 0 && instantiated.used == 0 && instantiated.reserved == 0 &&
                      launched.used >= bytes && launched.reserved == launched.used &&
                      trimmed.used == 0 && trimmed.reserved == 0 &&
                      trimmed.used_high == launched.used && again.used == launched.used &&
                      destroyed.used == 0 && reset.used_high == 0 && reset.reserved_high == 0;
  return report(passed);
}
