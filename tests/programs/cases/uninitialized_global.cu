// exec --check uninit on cudaMalloc'd memory: two reads of bytes nothing wrote (a histogram whose
// bins were never zeroed, and the last element of a buffer that a copy one element short left
// alone), and writes of every other kind that must not be taken for them: a kernel's output read
// by the next kernel, Thrust's host-side fill and copy (zeros among the bytes), cudaMemset,
// cudaMemcpy2D, an atomicExch flag, managed memory that host code wrote, and a vtable pointer
// that a constructor wrote in shared memory.
#include <cstdio>
#include <new>
#include <vector>

#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/fill.h>

__global__ void histogram(const unsigned char* in, int n, unsigned* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] % 16], 1u);
}
__global__ void twice(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
__global__ void raise_flag(int* flag) { atomicExch(flag, 1); }
// An object with a vtable built in shared memory by one thread, called by all after a barrier:
// the constructor's store of the vtable pointer is a write like any other.
struct Shape {
  __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
  __device__ int sides() const override { return 4; }
};
__global__ void virtual_in_shared(int* out) {
  __shared__ alignas(8) unsigned char storage[sizeof(Square)];
  __shared__ Shape* shape;
  if (threadIdx.x == 0) shape = new (storage) Square();
  __syncthreads();
  out[threadIdx.x] = shape->sides();
}
__global__ void copy_bytes(const char* in, char* out, int n) {
  if (threadIdx.x < n) out[threadIdx.x] = in[threadIdx.x];
}

int main() {
  const int n = 1000;
  std::vector<unsigned char> bytes(n);
  for (int i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>(i * 7);
  unsigned char* d_bytes;
  unsigned* d_bins;
  float *d_a, *d_b, *d_c, *d_pitched, *managed;
  int* d_flag;
  char *d_chars, *d_chars2;
  size_t pitch = 0;
  cudaMalloc(&d_bytes, n);
  cudaMalloc(&d_bins, 16 * sizeof(unsigned));
  cudaMalloc(&d_a, n * sizeof(float));
  cudaMalloc(&d_b, n * sizeof(float));
  cudaMalloc(&d_c, n * sizeof(float));
  cudaMalloc(&d_flag, sizeof(int));
  cudaMalloc(&d_chars, 64);
  cudaMalloc(&d_chars2, 64);
  cudaMallocPitch(&d_pitched, &pitch, 10 * sizeof(float), 4);
  cudaMallocManaged(&managed, n * sizeof(float));
  cudaMemcpy(d_bytes, bytes.data(), n, cudaMemcpyHostToDevice);

  histogram<<<4, 256>>>(d_bytes, n, d_bins);  // the bins were never zeroed
  std::vector<float> ones(n, 1.5f);
  cudaMemcpy(d_a, ones.data(), (n - 1) * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<4, 256>>>(d_a, d_b, n);  // reads d_a[n - 1], which the copy left alone

  thrust::fill(thrust::device_pointer_cast(d_c), thrust::device_pointer_cast(d_c) + n, 0.0f);
  twice<<<4, 256>>>(d_c, d_a, n);
  twice<<<4, 256>>>(d_b, d_c, n - 1);  // d_b[0..n-2]: the first launch of twice wrote them
  raise_flag<<<1, 1>>>(d_flag);
  std::vector<char> zeros(64, 0);
  thrust::copy(zeros.begin(), zeros.end(), thrust::device_pointer_cast(d_chars));
  copy_bytes<<<1, 64>>>(d_chars, d_chars2, 64);
  cudaMemset(d_chars2, 0, 64);
  copy_bytes<<<1, 64>>>(d_chars2, d_chars, 64);
  cudaMemcpy2D(d_pitched, pitch, ones.data(), 10 * sizeof(float), 10 * sizeof(float), 4,
               cudaMemcpyHostToDevice);
  twice<<<1, 10>>>(d_pitched, d_c, 10);
  for (int i = 0; i < n; ++i) managed[i] = 1.0f;
  twice<<<4, 256>>>(managed, d_c, n);
  virtual_in_shared<<<1, 64>>>(reinterpret_cast<int*>(d_a));
  cudaDeviceSynchronize();

  int flag = 0;
  cudaMemcpy(&flag, d_flag, sizeof flag, cudaMemcpyDeviceToHost);
  std::printf("flag %d\n", flag);
  return 0;
}
