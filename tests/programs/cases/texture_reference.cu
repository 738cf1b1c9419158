// A texture reference over linear memory (CUDA 11 and older; nvcc 13 refuses it), as Rodinia's
// kmeans and leukocyte use one: bound with cudaBindTexture by reference and by pointer, read
// with tex1Dfetch (0 past the bound bytes), unbound; a tex2D of a reference stops the launch.
#include <cstdio>

texture<float, 1, cudaReadModeElementType> t_values;
texture<int, 1, cudaReadModeElementType> t_counts;
texture<float, 2, cudaReadModeElementType> t_image;

__global__ void fetch(float* out, int* counts, int n) {
  const int i = threadIdx.x;
  out[i] = tex1Dfetch(t_values, i) * 2.0f;  // i >= n: 0
  counts[i] = tex1Dfetch(t_counts, i - 1);  // i == 0: 0
}
__global__ void fetch_2d(float* out) { out[threadIdx.x] = tex2D(t_image, 0.5f, 0.5f); }

int main(int argc, char**) {
  const int n = 24;
  float host[32];
  int counts[32];
  for (int i = 0; i < 32; ++i) host[i] = counts[i] = i + 1;
  float* values;
  int* device_counts;
  float* out;
  int* out_counts;
  cudaMalloc(&values, n * sizeof(float));
  cudaMalloc(&device_counts, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMalloc(&out_counts, 32 * sizeof(int));
  cudaMemcpy(values, host, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(device_counts, counts, 32 * sizeof(int), cudaMemcpyHostToDevice);
  size_t offset = 1;
  cudaBindTexture(&offset, t_values, values, n * sizeof(float));
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  cudaBindTexture(nullptr, &t_counts, device_counts, &desc, 32 * sizeof(int));
  fetch<<<1, 32>>>(out, out_counts, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaMemcpy(counts, out_counts, sizeof counts, cudaMemcpyDeviceToHost);
  cudaUnbindTexture(t_values);
  cudaUnbindTexture(&t_counts);
  bool passed = offset == 0;
  for (int i = 0; i < 32; ++i) {
    passed = passed && host[i] == (i < n ? 2.0f * (i + 1) : 0.0f) && counts[i] == i;
  }
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  if (argc > 1) fetch_2d<<<1, 32>>>(out);  // stops: tex2D of a texture reference
  return passed ? 0 : 1;
}
