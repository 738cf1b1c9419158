// A file whose host code has a function that calls one defined in another file of its project,
// which this program does not link (as llama.cpp's ggml-cuda files call ggml.c): nothing reaches
// it, so `--Xcompiler=-ffunction-sections --Xlinker=--gc-sections` drops it at the link, as nvcc
// with the same flags does; without them the link names the missing function.
#include <cstdio>

void project_log(const char* what);  // defined in a file not given

void report_unused(int n) {
  if (n < 0) project_log("negative");
}

__global__ void twice(int* data) { data[threadIdx.x] *= 2; }

int main() {
  int* d = nullptr;
  cudaMallocManaged(&d, 32 * sizeof(int));
  for (int i = 0; i < 32; ++i) d[i] = i;
  twice<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  std::printf("%d %d\n", d[1], d[31]);
  cudaFree(d);
  return 0;
}
