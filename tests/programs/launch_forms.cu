// Every way of writing a launch that nvcc accepts and real code uses: templates whose arguments
// hold commas, comparisons and other templates (as cuda-samples' reduction instantiates
// reduce<T, 512, true>), launches in macros (continued lines, arguments that are macros),
// through a parameter pack, a function pointer, a lambda, a member function, a template
// instantiated later, a qualified name, an `if` without braces, spread over lines with comments.
#include <cstdio>
#include <utility>

#define THREADS 32
#define BLOCKS_FOR(n) (((n) + THREADS - 1) / THREADS)

template <int Base, bool AddOne>
__global__ void setTemplated(int* out) {
  out[threadIdx.x] = Base + (AddOne ? 1 : 0);
}

template <typename T, int N>
struct Fixed {
  static constexpr int value = N;
};

template <typename Holder, int Extra>
__global__ void setFromHolder(int* out) {
  out[threadIdx.x] = Holder::value + Extra;
}

template <typename T, bool Big>
__global__ void setBySize(T* out) {
  out[threadIdx.x] = Big ? 70 : 80;
}

__global__ void setValue(int* out, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = value;
}

namespace kernels {
__global__ void setAnswer(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 42; }
}  // namespace kernels

// Launches inside macros: one line, continued lines, and a macro whose use supplies the
// arguments.
#define LAUNCH_SET(kernel, n, value) kernel<<<BLOCKS_FOR(n), THREADS>>>(out, value)
#define LAUNCH_SET_SLOWLY(kernel, value) \
  kernel<<<1,                            \
           THREADS>>>(out,               \
                      value)
#define ON_ONE_WARP(kernel) kernel<<<1, THREADS>>>

template <typename... Args>
void forwardLaunch(Args&&... args) {
  setValue<<<1, THREADS>>>(std::forward<Args>(args)...);
}

template <typename... Params>
void launchPointer(void (*kernel)(Params...), Params... params) {
  kernel<<<1, THREADS>>>(params...);
}

struct Launcher {
  int* out;
  void set(int value) const { setValue<<<1, THREADS>>>(out, value); }
};

template <int Value>
void launchLater(int* out) {
  setValue<<<dim3(1, 1), dim3(THREADS), 0, cudaStream_t(0)>>>(out, Value);
}

int errors = 0;

void expect(const int* out, int count, int value, const char* what) {
  cudaDeviceSynchronize();
  for (int i = 0; i < count; ++i) {
    if (out[i] != value) {
      std::printf("%s: element %d is %d, expected %d\n", what, i, out[i], value);
      ++errors;
      return;
    }
  }
}

int main() {
  int* out = nullptr;
  cudaMallocManaged(&out, 4 * THREADS * sizeof(int));

  setTemplated<3, true><<<1, THREADS>>>(out);
  expect(out, THREADS, 4, "template arguments with a comma");
  constexpr int N = 4;
  setBySize<int, (N > 2)><<<1, THREADS>>>(out);
  expect(out, THREADS, 70, "a parenthesized comparison in template arguments");
  setFromHolder<Fixed<int, 2>, 3><<<1, THREADS>>>(out);
  expect(out, THREADS, 5, "a template in template arguments");

  LAUNCH_SET(setValue, 4 * THREADS, 5);
  expect(out, 4 * THREADS, 5, "a launch in a macro");
  LAUNCH_SET_SLOWLY(setValue, 6);
  expect(out, THREADS, 6, "a launch in a macro over continued lines");
  ON_ONE_WARP(setValue)(out, 7);
  expect(out, THREADS, 7, "a macro that ends at the launch's >>>");

  forwardLaunch(out, 11);
  expect(out, THREADS, 11, "a launch through a parameter pack");
  launchPointer(setValue, out, 12);
  expect(out, THREADS, 12, "a launch through a function pointer");
  auto launchInLambda = [&](int value) { setValue<<<1, THREADS>>>(out, value); };
  launchInLambda(13);
  expect(out, THREADS, 13, "a launch in a lambda");
  Launcher{out}.set(14);
  expect(out, THREADS, 14, "a launch in a member function");
  launchLater<15>(out);
  expect(out, THREADS, 15, "a launch in a function template");

  if (errors == 0) ::kernels::setAnswer<<< 2, THREADS >>>(out);
  else std::printf("skipped the qualified launch\n");
  expect(out, 2 * THREADS, 42, "a qualified launch in an if without braces");
  setValue <<< 1, /* one warp */ THREADS
           >>> (out,  // the buffer
                16);
  expect(out, THREADS, 16, "a launch spread over lines, with comments");

  cudaFree(out);
  std::printf("%d launch forms wrong\n", errors);
  std::printf("%s\n", errors == 0 ? "PASSED" : "FAILED");
  return errors == 0 ? 0 : 1;
}
