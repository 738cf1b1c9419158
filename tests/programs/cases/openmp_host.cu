// Host code with OpenMP, as the cudaOpenMP sample: it needs the host compiler's -fopenmp at the
// compile and at the link (exec --Xcompiler=-fopenmp, as nvcc's -Xcompiler -fopenmp); without it
// omp_get_thread_num is undefined at the link.
#include <omp.h>

#include <cstdio>

__global__ void add(int* values, int amount) { values[threadIdx.x] += amount; }

int main() {
  int* values;
  cudaMallocManaged(&values, 4 * sizeof(int));
  int threads[4] = {};
#pragma omp parallel num_threads(4)
  {
    const int id = omp_get_thread_num();
    threads[id] = omp_get_num_threads();
  }
  for (int i = 0; i < 4; ++i) values[i] = threads[i];
  add<<<1, 4>>>(values, 10);
  cudaDeviceSynchronize();
  std::printf("%d %d %d %d\n", values[0], values[1], values[2], values[3]);
  return values[3] == 14 ? 0 : 1;
}
