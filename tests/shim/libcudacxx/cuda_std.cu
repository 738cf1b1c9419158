// libcu++ in a kernel file, from the CUDA toolkit's own headers compiled as host code.
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

// out[0]: the largest lane index, by cuda::atomic_ref fetch_max; out[1]: lanes counted with
// cuda::std::atomic_ref; out[2]: the sum of a cuda::std::array; out[3]: numeric_limits<int>::max
// is INT_MAX and is_same holds (1).
__global__ void cuda_std(int* out) {
  const int t = static_cast<int>(threadIdx.x);
  cuda::atomic_ref<int, cuda::thread_scope_device> largest(out[0]);
  largest.fetch_max(t);
  cuda::std::atomic_ref<int> count(out[1]);
  count.fetch_add(1);
  if (t == 0) {
    const cuda::std::array<int, 3> values{1, 2, 3};
    out[2] = values[0] + values[1] + values[2];
    out[3] = cuda::std::numeric_limits<int>::max() == 2147483647 &&
             cuda::std::is_same<cuda::std::int32_t, int>::value;
  }
}
