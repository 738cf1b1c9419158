// Texture references (CUDA 11 and older; nvcc 13 refuses them): over linear memory, as Rodinia's
// kmeans and leukocyte use them (cudaBindTexture by reference and by pointer, tex1Dfetch, 0 past
// the bound bytes, unbound); over a CUDA array, as mummergpu's (cudaBindTextureToArray, tex2D
// with clamped, unnormalized coordinates, uint4 texels). A tex2D of a reference nothing bound
// stops the launch.
#include <cstdio>

texture<float, 1, cudaReadModeElementType> t_values;
texture<int, 1, cudaReadModeElementType> t_counts;
texture<float, 2, cudaReadModeElementType> t_image;
texture<uint4, 2, cudaReadModeElementType> t_nodes;

__global__ void fetch(float* out, int* counts, int n) {
  const int i = threadIdx.x;
  out[i] = tex1Dfetch(t_values, i) * 2.0f;  // i >= n: 0
  counts[i] = tex1Dfetch(t_counts, i - 1);  // i == 0: 0
}
__global__ void fetch_2d(float* out) { out[threadIdx.x] = tex2D(t_image, 0.5f, 0.5f); }
// Lane i reads texel (i % 4, i / 4) of a 4x4 array; lanes 16-31 read past its bottom (clamped).
__global__ void fetch_nodes(unsigned* out) {
  const uint4 texel = tex2D(t_nodes, threadIdx.x % 4, threadIdx.x / 4);
  out[threadIdx.x] = texel.x + texel.y + texel.z + texel.w;
}

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

  uint4 texels[16];
  for (unsigned i = 0; i < 16; ++i) texels[i] = make_uint4(i, 100 * i, 0, 1);
  const cudaChannelFormatDesc node_desc =
      cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindUnsigned);
  cudaArray_t nodes;
  cudaMallocArray(&nodes, &node_desc, 4, 4);
  cudaMemcpy2DToArray(nodes, 0, 0, texels, 4 * sizeof(uint4), 4 * sizeof(uint4), 4,
                      cudaMemcpyHostToDevice);
  t_nodes.addressMode[0] = t_nodes.addressMode[1] = cudaAddressModeClamp;
  t_nodes.filterMode = cudaFilterModePoint;
  t_nodes.normalized = false;
  const bool bound = cudaBindTextureToArray(t_nodes, nodes, node_desc) == cudaSuccess;
  unsigned* sums;
  cudaMalloc(&sums, 32 * sizeof(unsigned));
  fetch_nodes<<<1, 32>>>(sums);
  unsigned got[32];
  cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
  passed = passed && bound;
  for (unsigned i = 0; i < 32; ++i) {
    const unsigned texel = i < 16 ? i : 12 + i % 4;  // rows past the bottom read the last row
    passed = passed && got[i] == 101 * texel + 1;
  }
  cudaUnbindTexture(t_nodes);
  cudaFreeArray(nodes);
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  if (argc > 1) fetch_2d<<<1, 32>>>(out);  // stops: tex2D of a reference nothing bound
  return passed ? 0 : 1;
}
