// A templated element-wise kernel over float and double with functor arguments (saxpy and a
// clamp), launched with explicit and deduced template arguments.
#include <vector>

#include "check.cuh"

struct Axpy {
  double a;
  template <typename T>
  __host__ __device__ T operator()(T x, T y) const { return static_cast<T>(a) * x + y; }
};

struct Clamp {
  template <typename T>
  __host__ __device__ T operator()(T x, T limit) const { return x > limit ? limit : (x < -limit ? -limit : x); }
};

template <typename T, typename Op>
__global__ void transform(const T* x, const T* y, T* out, int n, Op op) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = op(x[i], y[i]);
  }
}

template <typename T, typename Op>
int runCase(const char* name, Op op, int n) {
  std::vector<T> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<T>(i % 19) - static_cast<T>(9);
    y[i] = static_cast<T>(i % 5);
  }
  T *d_x, *d_y, *d_out;
  CHECK(cudaMalloc(&d_x, n * sizeof(T)));
  CHECK(cudaMalloc(&d_y, n * sizeof(T)));
  CHECK(cudaMalloc(&d_out, n * sizeof(T)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  transform<<<4, 64>>>(static_cast<const T*>(d_x), static_cast<const T*>(d_y), d_out, n, op);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != op(x[i], y[i]);
  std::printf("%s: %d wrong of %d\n", name, wrong, n);
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_out));
  return wrong;
}

int main() {
  int wrong = 0;
  wrong += runCase<float>("saxpy float", Axpy{2.0}, 1000);
  wrong += runCase<double>("daxpy double", Axpy{-0.5}, 1000);
  wrong += runCase<float>("clamp float", Clamp{}, 700);
  // An explicit instantiation at the launch.
  float *d_a, *d_b;
  CHECK(cudaMalloc(&d_a, 64 * sizeof(float)));
  CHECK(cudaMalloc(&d_b, 64 * sizeof(float)));
  CHECK(cudaMemset(d_a, 0, 64 * sizeof(float)));
  transform<float, Clamp><<<1, 64>>>(d_a, d_a, d_b, 64, Clamp{});
  CHECK(cudaGetLastError());
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  return report(wrong == 0);
}
