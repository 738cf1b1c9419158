// Every thread writes one element (a race), then computes far longer than any time limit: the
// time limit stops the launch, and the race found before is reported with it.
#include <cstdio>

__global__ void racyThenLong(int* data, long long* sink, long long n) {
  data[0] = threadIdx.x;
  long long acc = 0;
  for (long long i = 0; i < n; ++i) acc += i ^ threadIdx.x;
  sink[threadIdx.x] = acc;
}

int main() {
  int* data;
  long long* sink;
  cudaMalloc(&data, sizeof(int));
  cudaMalloc(&sink, 256 * sizeof(long long));
  racyThenLong<<<4, 256>>>(data, sink, 1ll << 40);
  cudaDeviceSynchronize();
  std::printf("PASSED\n");
  return 0;
}
