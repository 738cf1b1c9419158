// Tiled matrix multiplication in shared memory (the CUDA programming guide's example): each
// block computes a TILE x TILE part of C, looping over tiles of A and B with __syncthreads.
#include <vector>

#include "check.cuh"

constexpr int TILE = 16;

__global__ void matMul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int a_col = t * TILE + threadIdx.x, b_row = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = b_row < K && col < N ? B[b_row * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

int main() {
  const int M = 40, N = 24, K = 36;
  std::vector<float> A(M * K), B(K * N), C(M * N);
  for (int i = 0; i < M * K; ++i) A[i] = static_cast<float>(i % 7 - 3);
  for (int i = 0; i < K * N; ++i) B[i] = static_cast<float>(i % 5 - 2);
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matMul<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int r = 0; r < M; ++r) {
    for (int c = 0; c < N; ++c) {
      float sum = 0;
      for (int k = 0; k < K; ++k) sum += A[r * K + k] * B[k * N + c];
      wrong += sum != C[r * N + c];  // small integers: exact in float
    }
  }
  std::printf("matmul %dx%d * %dx%d: C[0][0] = %g, %d wrong\n", M, K, K, N, C[0], wrong);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  return report(wrong == 0);
}
