// A graph built with CUDA 12's generic node parameters (`cudaGraphNodeParams p =
// {cudaGraphNodeTypeKernel};`, as graphConditionalNodes writes them) and an allocation from a
// pool by cudaMallocAsync's pool overload; then a conditional handle, which warpsim does not
// simulate: the program stops there, naming it and this file's line.
#include <cstdio>

#include <cuda_runtime.h>

int main() {
  cudaGraphNodeParams params = {cudaGraphNodeTypeKernel};
  std::printf("type %d, func %s\n", static_cast<int>(params.type),
              params.kernel.func == nullptr ? "null" : "set");
  cudaMemPool_t pool = nullptr;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  int* data = nullptr;
  if (cudaMallocAsync(&data, 64 * sizeof(int), pool, nullptr) != cudaSuccess) return 1;
  cudaFreeAsync(data, nullptr);
  std::printf("allocated from the pool\n");
  cudaGraph_t graph = nullptr;
  cudaGraphCreate(&graph, 0);
  cudaGraphConditionalHandle handle = 0;
  cudaGraphConditionalHandleCreate(&handle, graph);
  std::printf("PASSED\n");
  return 0;
}
