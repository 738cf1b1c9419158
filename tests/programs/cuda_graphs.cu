// CUDA graphs, both ways: a graph captured from three streams (fork and join through events,
// an async copy, memsets, two launches, a host function) and the same built node by node (the
// kernels given as void*, as cudaKernelNodeParams takes them), each instantiated and launched
// twice; a clone, a child graph, cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate, memory
// nodes whose address is the same at every launch, host functions and callbacks in a stream, and
// a memory pool.
#include <vector>

#include "check.cuh"

__global__ void scale(const float* in, float* out, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

__global__ void sumAll(const float* in, float* total, int n) {
  __shared__ float partial[128];
  float mine = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) mine += in[i];
  partial[threadIdx.x] = mine;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total += partial[0];
}

struct HostCount {
  int calls = 0;
  float last = 0.0f;
  const float* watched = nullptr;
};
void CUDART_CB countCall(void* data) {
  auto* count = static_cast<HostCount*>(data);
  ++count->calls;
  count->last = *count->watched;
}
void CUDART_CB streamCallback(cudaStream_t, cudaError_t status, void* data) {
  if (status == cudaSuccess) ++static_cast<HostCount*>(data)->calls;
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> host(n);
  float expected = 0.0f;
  for (int i = 0; i < n; ++i) {
    host[i] = static_cast<float>(i % 7);
    expected += 3.0f * host[i];
  }
  float *input, *scaled, *total;
  CHECK(cudaMalloc(&input, n * sizeof(float)));
  CHECK(cudaMalloc(&scaled, n * sizeof(float)));
  CHECK(cudaMalloc(&total, sizeof(float)));
  float result = -1.0f;
  HostCount count;
  count.watched = &result;
  bool ok = true;

  // Captured: stream1 forks to stream2 and stream3, which join back before the sum.
  cudaStream_t s1, s2, s3, s4;
  for (cudaStream_t* s : {&s1, &s2, &s3, &s4}) CHECK(cudaStreamCreate(s));
  cudaEvent_t fork, joined2, joined3;
  for (cudaEvent_t* e : {&fork, &joined2, &joined3}) CHECK(cudaEventCreate(e));
  cudaGraph_t captured;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s1, &status));
  ok = ok && status == cudaStreamCaptureStatusActive;
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaStreamWaitEvent(s3, fork, 0));
  CHECK(cudaMemcpyAsync(input, host.data(), n * sizeof(float), cudaMemcpyHostToDevice, s1));
  CHECK(cudaMemsetAsync(scaled, 0, n * sizeof(float), s2));
  CHECK(cudaEventRecord(joined2, s2));
  CHECK(cudaMemsetAsync(total, 0, sizeof(float), s3));
  CHECK(cudaEventRecord(joined3, s3));
  CHECK(cudaStreamWaitEvent(s1, joined2, 0));
  scale<<<blocks, threads, 0, s1>>>(input, scaled, 3.0f, n);
  CHECK(cudaStreamWaitEvent(s1, joined3, 0));
  sumAll<<<1, threads, 0, s1>>>(scaled, total, n);
  CHECK(cudaMemcpyAsync(&result, total, sizeof(float), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaLaunchHostFunc(s1, countCall, &count));
  // Nothing has run yet: the capture only recorded.
  ok = ok && result == -1.0f && count.calls == 0;
  CHECK(cudaStreamEndCapture(s1, &captured));
  CHECK(cudaStreamIsCapturing(s1, &status));
  ok = ok && status == cudaStreamCaptureStatusNone;
  std::size_t nodes = 0;
  CHECK(cudaGraphGetNodes(captured, nullptr, &nodes));
  std::printf("captured graph: %zu nodes\n", nodes);
  ok = ok && nodes == 7;
  cudaGraphExec_t capturedExec;
  CHECK(cudaGraphInstantiate(&capturedExec, captured, 0));
  for (int launch = 0; launch < 2; ++launch) {
    result = -1.0f;
    CHECK(cudaGraphLaunch(capturedExec, s4));
    CHECK(cudaStreamSynchronize(s4));
    ok = ok && result == expected && count.last == expected;
  }
  ok = ok && count.calls == 2;

  // Built node by node, the kernels as void*, with a clone and a child graph.
  cudaGraph_t built;
  CHECK(cudaGraphCreate(&built, 0));
  cudaGraphNode_t copyIn, clearTotal, scaleNode, sumNode, copyOut;
  CHECK(cudaGraphAddMemcpyNode1D(&copyIn, built, nullptr, 0, input, host.data(),
                                 n * sizeof(float), cudaMemcpyHostToDevice));
  cudaMemsetParams clear = {};
  clear.dst = total;
  clear.value = 0;
  clear.elementSize = sizeof(float);
  clear.width = 1;
  clear.height = 1;
  CHECK(cudaGraphAddMemsetNode(&clearTotal, built, nullptr, 0, &clear));
  float factor = 3.0f;
  int count_n = n;
  void* scaleArgs[] = {&input, &scaled, &factor, &count_n};
  cudaKernelNodeParams kernel = {0};
  kernel.func = (void*)scale;
  kernel.gridDim = dim3(blocks);
  kernel.blockDim = dim3(threads);
  kernel.kernelParams = scaleArgs;
  CHECK(cudaGraphAddKernelNode(&scaleNode, built, &copyIn, 1, &kernel));
  factor = 100.0f;  // the node copied the arguments when it was made
  void* sumArgs[] = {&scaled, &total, &count_n};
  kernel.func = (void*)sumAll;
  kernel.gridDim = dim3(1);
  kernel.kernelParams = sumArgs;
  const cudaGraphNode_t beforeSum[] = {scaleNode, clearTotal};
  CHECK(cudaGraphAddKernelNode(&sumNode, built, beforeSum, 2, &kernel));
  CHECK(cudaGraphAddMemcpyNode1D(&copyOut, built, &sumNode, 1, &result, total, sizeof(float),
                                 cudaMemcpyDeviceToHost));
  cudaGraph_t parent, clone;
  CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t child;
  CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, built));
  CHECK(cudaGraphClone(&clone, parent));
  cudaGraphExec_t builtExec, cloneExec;
  CHECK(cudaGraphInstantiate(&builtExec, built, nullptr, nullptr, 0));
  CHECK(cudaGraphInstantiateWithFlags(&cloneExec, clone, 0));
  for (cudaGraphExec_t exec : {builtExec, cloneExec}) {
    result = -1.0f;
    CHECK(cudaGraphLaunch(exec, s4));
    CHECK(cudaStreamSynchronize(s4));
    ok = ok && result == expected;
  }
  // The executable graph's kernel node takes new arguments; the graph it came from keeps its own.
  factor = 2.0f;
  kernel.func = (void*)scale;
  kernel.gridDim = dim3(blocks);
  kernel.kernelParams = scaleArgs;
  CHECK(cudaGraphExecKernelNodeSetParams(builtExec, scaleNode, &kernel));
  CHECK(cudaGraphLaunch(builtExec, s4));
  CHECK(cudaStreamSynchronize(s4));
  ok = ok && result == expected * 2.0f / 3.0f;
  CHECK(cudaGraphLaunch(cloneExec, s4));
  CHECK(cudaStreamSynchronize(s4));
  ok = ok && result == expected;
  // An update with the same shape replaces the parameters; another shape is refused.
  CHECK(cudaGraphKernelNodeSetParams(scaleNode, &kernel));
  cudaGraphExecUpdateResultInfo update;
  CHECK(cudaGraphExecUpdate(cloneExec, parent, &update));
  ok = ok && update.result == cudaGraphExecUpdateSuccess;
  CHECK(cudaGraphExecUpdate(builtExec, built, &update));
  CHECK(cudaGraphLaunch(builtExec, s4));
  CHECK(cudaStreamSynchronize(s4));
  ok = ok && result == expected * 2.0f / 3.0f;
  ok = ok && cudaGraphExecUpdate(cloneExec, built, &update) == cudaErrorGraphExecUpdateFailure &&
       update.result == cudaGraphExecUpdateErrorTopologyChanged;
  (void)cudaGetLastError();  // the refused update is also the last error on a GPU

  // Memory nodes: the same address at every launch, in use only between alloc and free.
  cudaGraph_t memoryGraph;
  CHECK(cudaGraphCreate(&memoryGraph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.bytesize = n * sizeof(float);
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  cudaGraphNode_t allocNode, scratchScale, scratchSum, freeNode;
  CHECK(cudaGraphAddMemAllocNode(&allocNode, memoryGraph, nullptr, 0, &alloc));
  float* scratch = static_cast<float*>(alloc.dptr);
  factor = 3.0f;
  void* scratchScaleArgs[] = {&input, &scratch, &factor, &count_n};
  kernel.kernelParams = scratchScaleArgs;
  CHECK(cudaGraphAddKernelNode(&scratchScale, memoryGraph, &allocNode, 1, &kernel));
  void* scratchSumArgs[] = {&scratch, &total, &count_n};
  kernel.func = (void*)sumAll;
  kernel.gridDim = dim3(1);
  kernel.kernelParams = scratchSumArgs;
  CHECK(cudaGraphAddKernelNode(&scratchSum, memoryGraph, &scratchScale, 1, &kernel));
  CHECK(cudaGraphAddMemFreeNode(&freeNode, memoryGraph, &scratchSum, 1, scratch));
  cudaGraphExec_t memoryExec;
  CHECK(cudaGraphInstantiate(&memoryExec, memoryGraph, 0));
  CHECK(cudaGraphDestroy(memoryGraph));
  CHECK(cudaMemset(total, 0, sizeof(float)));
  for (int launch = 0; launch < 2; ++launch) CHECK(cudaGraphLaunch(memoryExec, s4));
  CHECK(cudaStreamSynchronize(s4));
  CHECK(cudaMemcpy(&result, total, sizeof(float), cudaMemcpyDeviceToHost));
  ok = ok && result == 2.0f * expected;
  // The physical memory stays with the graphs after the free node, until trimmed.
  unsigned long long used = 0, reserved = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &reserved));
  ok = ok && used >= n * sizeof(float) && reserved >= used;
  CHECK(cudaDeviceGraphMemTrim(0));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  ok = ok && used == 0;

  // Host work in a stream, in order; a stream-ordered allocation from a pool.
  count.calls = 0;
  CHECK(cudaStreamAddCallback(s4, streamCallback, &count, 0));
  CHECK(cudaLaunchHostFunc(s4, countCall, &count));
  CHECK(cudaStreamSynchronize(s4));  // they run when the stream gets to them
  ok = ok && count.calls == 2;
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long threshold = ~0ull, readBack = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &readBack));
  float* pooled;
  CHECK(cudaMallocFromPoolAsync(&pooled, n * sizeof(float), pool, s4));
  CHECK(cudaStreamSynchronize(s4));  // the allocation is made when the stream gets to it
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  scale<<<blocks, threads, 0, s4>>>(input, pooled, 1.0f, n);
  CHECK(cudaMemcpyAsync(host.data(), pooled, n * sizeof(float), cudaMemcpyDeviceToHost, s4));
  CHECK(cudaFreeAsync(pooled, s4));
  CHECK(cudaStreamSynchronize(s4));
  ok = ok && readBack == threshold && used >= n * sizeof(float) && host[6] == 6.0f;

  for (cudaGraphExec_t exec : {capturedExec, builtExec, cloneExec, memoryExec})
    CHECK(cudaGraphExecDestroy(exec));
  for (cudaGraph_t graph : {captured, built, parent, clone}) CHECK(cudaGraphDestroy(graph));
  for (cudaEvent_t e : {fork, joined2, joined3}) CHECK(cudaEventDestroy(e));
  for (cudaStream_t s : {s1, s2, s3, s4}) CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(input));
  CHECK(cudaFree(scaled));
  CHECK(cudaFree(total));
  std::printf("graphs: sum %.1f (expected %.1f)\n", result, expected);
  return report(ok);
}
