// Matrix transpose through a shared-memory tile padded against bank conflicts (TILE x TILE+1),
// 2D grid and blocks of TILE x ROWS threads, each thread moving TILE/ROWS elements.
#include <vector>

#include "check.cuh"

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transposeShared(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

int main() {
  const int width = 96, height = 70;
  std::vector<float> in(width * height), out(width * height, -1.0f);
  for (int i = 0; i < width * height; ++i) in[i] = static_cast<float>(i);
  float *d_in, *d_out;
  const size_t bytes = in.size() * sizeof(float);
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
  dim3 block(TILE, ROWS);
  transposeShared<<<grid, block>>>(d_out, d_in, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      if (out[x * height + y] != in[y * width + x]) ++wrong;
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  std::printf("transpose %dx%d: %d wrong elements\n", width, height, wrong);
  return report(wrong == 0);
}
