// What a GPU does when a kernel is given host memory no CUDA call made (a std::vector's data, a
// malloc'd block, a stack array) instead of a device pointer: the classic mistake that
// tests/programs/cases/host_pointer.cu makes. Without heterogeneous memory management (HMM) the
// access faults (cudaErrorIllegalAddress, sticky); with it, the kernel reads and writes the
// host's pages. warpsim reaches host memory too and says so (a warning, a finding under
// --check): this probe says what this machine's GPU does. One process per form (a fault ends
// the context). Built with nvcc and run by tests/shim/record_api_probes.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void doubleAll(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}

int main(int argc, char** argv) {
  const char* forms[] = {"read_vector", "write_malloc", "read_stack"};
  if (argc < 2) {
    for (const char* form : forms) std::printf("%s\n", form);
    return 0;
  }
  const int n = 64;
  std::vector<int> vector(n, 21);
  int* heap = static_cast<int*>(std::malloc(n * sizeof(int)));
  int stack[64];
  for (int i = 0; i < n; ++i) heap[i] = stack[i] = 21;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, vector.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, n * sizeof(int));
  const char* form = argv[1];
  if (std::strcmp(form, "read_vector") == 0) {
    doubleAll<<<1, n>>>(vector.data(), d_out, n);
  } else if (std::strcmp(form, "write_malloc") == 0) {
    std::memset(heap, 0, n * sizeof(int));
    doubleAll<<<1, n>>>(d_in, heap, n);
  } else if (std::strcmp(form, "read_stack") == 0) {
    doubleAll<<<1, n>>>(stack, d_out, n);
  } else {
    std::fprintf(stderr, "host_memory_in_kernel: unknown form %s\n", form);
    return 2;
  }
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  int first = -1;
  if (sync == cudaSuccess) {
    if (std::strcmp(form, "write_malloc") == 0) {
      first = heap[0];
    } else {
      cudaMemcpy(&first, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    }
  }
  std::printf("%s: launch %s, cudaDeviceSynchronize %s, first result %d\n", form,
              cudaGetErrorName(launch), cudaGetErrorName(sync), first);
  return 0;
}
