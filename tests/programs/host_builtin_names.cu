// Host code that names its own variables as CUDA's built-ins, as the tensor-core samples do
// (`dim3 gridDim; dim3 blockDim; blockDim.x = 128; ... k<<<gridDim, blockDim>>>(...)`): locals,
// parameters and struct members called gridDim and blockDim are the host's, while the kernels
// keep reading the built-ins.
#include <cstdio>

// Each thread writes what the built-ins say about its launch.
__global__ void writeShape(int* out) {
  const int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
                threadIdx.y * blockDim.x + threadIdx.x;
  out[i] = gridDim.x * 1000 + gridDim.y * 100 + blockDim.x + blockDim.y;
}

struct LaunchShape {
  dim3 gridDim;
  dim3 blockDim;
  int threads() const { return gridDim.x * gridDim.y * blockDim.x * blockDim.y; }
};

int errors = 0;

void check(const int* out, int threads, int expected, const char* what) {
  cudaDeviceSynchronize();
  for (int i = 0; i < threads; ++i) {
    if (out[i] != expected) {
      std::printf("%s: thread %d saw %d, expected %d\n", what, i, out[i], expected);
      ++errors;
      return;
    }
  }
}

void launchWith(int* out, dim3 gridDim, const dim3& blockDim) {
  writeShape<<<gridDim, blockDim>>>(out);
  check(out, gridDim.x * gridDim.y * blockDim.x * blockDim.y,
        gridDim.x * 1000 + gridDim.y * 100 + blockDim.x + blockDim.y, "parameters");
}

int main() {
  int* out = nullptr;
  cudaMallocManaged(&out, 4096 * sizeof(int));
  {
    dim3 gridDim;
    dim3 blockDim;
    blockDim.x = 64;
    blockDim.y = 2;
    gridDim.x = 3;
    gridDim.y = 2;
    writeShape<<<gridDim, blockDim>>>(out);
    check(out, 3 * 2 * 64 * 2, 3 * 1000 + 2 * 100 + 64 + 2, "locals set field by field");
  }
  dim3 gridDim(4), blockDim(32);
  writeShape<<<gridDim, blockDim>>>(out);
  check(out, 4 * 32, 4 * 1000 + 100 + 32 + 1, "locals declared together");

  launchWith(out, dim3(2, 3), dim3(16, 4));

  LaunchShape shape{dim3(5), dim3(8, 8)};
  LaunchShape* pointer = &shape;
  writeShape<<<shape.gridDim, pointer->blockDim>>>(out);
  check(out, shape.threads(), 5 * 1000 + 100 + 8 + 8, "struct members");

  auto again = [gridDim, &blockDim](int* o) { writeShape<<<gridDim, blockDim>>>(o); };
  again(out);
  check(out, 4 * 32, 4 * 1000 + 100 + 32 + 1, "captured by a lambda");

  cudaFree(out);
  std::printf("%d launches saw the wrong shape\n", errors);
  std::printf("%s\n", errors == 0 ? "PASSED" : "FAILED");
  return errors == 0 ? 0 : 1;
}
