// What the CUDA runtime returns when a copy or a memset names device memory that is not there:
// a null or freed pointer, a range that runs past the end of its allocation or starts before it,
// small allocations (which the driver carves out of larger pools) and large ones; and when
// cudaFree is given what is not an allocation's start (freed already, inside one, host memory). The simulator
// checks device ranges against its allocations; this probe says, per form, what a GPU does, so
// that the simulator returns the same error where the GPU refuses. Each form prints what the call
// returned, then what cudaGetLastError and cudaDeviceSynchronize return after it (a refused
// call must leave no sticky error behind). Built with nvcc and run by
// tests/shim/record_api_probes.sh, one process per form: `copy_ranges` alone lists the forms.
// Under `warpsim exec` the same program is replayed by tests/shim/api_probes_test.cpp.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr size_t kSmall = 100;             // a sub-allocation of the driver's pool
constexpr size_t kLarge = size_t{4} << 20;  // an allocation of its own

struct Form {
  const char* name;
  const char* what;
};

const Form kForms[] = {
    {"h2d_exact_small", "host to device, the whole 100-byte allocation (the control)"},
    {"h2d_null", "host to device, 16 bytes to a null pointer"},
    {"h2d_over4_small", "host to device, 104 bytes into a 100-byte allocation"},
    {"h2d_over1m_small", "host to device, 1 MiB into a 100-byte allocation"},
    {"h2d_exact_large", "host to device, the whole 4 MiB allocation (the control)"},
    {"h2d_over4_large", "host to device, 4 MiB + 4 bytes into a 4 MiB allocation"},
    {"h2d_tail_over_large", "host to device, 8 bytes at the last 4 bytes of a 4 MiB allocation"},
    {"h2d_before_large", "host to device, 8 bytes starting 4 bytes before a 4 MiB allocation"},
    {"h2d_freed_large", "host to device, 16 bytes into a freed 4 MiB allocation"},
    {"d2h_over4_large", "device to host, 4 MiB + 4 bytes out of a 4 MiB allocation"},
    {"d2d_over4_large", "device to device, 4 MiB + 4 bytes between two 4 MiB allocations"},
    {"default_over4_large", "cudaMemcpyDefault, 4 MiB + 4 bytes into a 4 MiB allocation"},
    {"async_over4_large", "cudaMemcpyAsync host to device, 4 MiB + 4 bytes into 4 MiB"},
    {"memset_over4_small", "cudaMemset, 104 bytes of a 100-byte allocation"},
    {"memset_over4_large", "cudaMemset, 4 MiB + 4 bytes of a 4 MiB allocation"},
    {"memset_null", "cudaMemset, 16 bytes at a null pointer"},
    {"h2d_into_host", "host to device, 16 bytes whose destination is malloc'd host memory"},
    {"h2d_zero_null", "host to device, 0 bytes to a null pointer"},
    {"free_null", "cudaFree of a null pointer"},
    {"free_twice", "cudaFree of a 4 MiB allocation freed already"},
    {"free_inside", "cudaFree of a pointer 256 bytes into a 4 MiB allocation"},
    {"free_host", "cudaFree of malloc'd host memory"},
};

void report(const char* name, cudaError_t returned) {
  const cudaError_t last = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  std::printf("%s: returned %s (%d); then cudaGetLastError %s, cudaDeviceSynchronize %s\n", name,
              cudaGetErrorName(returned), static_cast<int>(returned), cudaGetErrorName(last),
              cudaGetErrorName(sync));
}

cudaError_t run(const char* name, std::vector<char>& host) {
  char* small = nullptr;
  char* large = nullptr;
  char* other = nullptr;
  cudaMalloc(&small, kSmall);
  cudaMalloc(&large, kLarge);
  cudaMalloc(&other, kLarge);
  const auto is = [name](const char* form) { return std::strcmp(name, form) == 0; };
  if (is("h2d_exact_small")) return cudaMemcpy(small, host.data(), kSmall, cudaMemcpyHostToDevice);
  if (is("h2d_null")) return cudaMemcpy(nullptr, host.data(), 16, cudaMemcpyHostToDevice);
  if (is("h2d_over4_small"))
    return cudaMemcpy(small, host.data(), kSmall + 4, cudaMemcpyHostToDevice);
  if (is("h2d_over1m_small"))
    return cudaMemcpy(small, host.data(), size_t{1} << 20, cudaMemcpyHostToDevice);
  if (is("h2d_exact_large")) return cudaMemcpy(large, host.data(), kLarge, cudaMemcpyHostToDevice);
  if (is("h2d_over4_large"))
    return cudaMemcpy(large, host.data(), kLarge + 4, cudaMemcpyHostToDevice);
  if (is("h2d_tail_over_large"))
    return cudaMemcpy(large + kLarge - 4, host.data(), 8, cudaMemcpyHostToDevice);
  if (is("h2d_before_large"))
    return cudaMemcpy(large - 4, host.data(), 8, cudaMemcpyHostToDevice);
  if (is("h2d_freed_large")) {
    cudaFree(other);
    return cudaMemcpy(other, host.data(), 16, cudaMemcpyHostToDevice);
  }
  if (is("d2h_over4_large"))
    return cudaMemcpy(host.data(), large, kLarge + 4, cudaMemcpyDeviceToHost);
  if (is("d2d_over4_large")) return cudaMemcpy(other, large, kLarge + 4, cudaMemcpyDeviceToDevice);
  if (is("default_over4_large"))
    return cudaMemcpy(large, host.data(), kLarge + 4, cudaMemcpyDefault);
  if (is("async_over4_large"))
    return cudaMemcpyAsync(large, host.data(), kLarge + 4, cudaMemcpyHostToDevice, 0);
  if (is("memset_over4_small")) return cudaMemset(small, 1, kSmall + 4);
  if (is("memset_over4_large")) return cudaMemset(large, 1, kLarge + 4);
  if (is("memset_null")) return cudaMemset(nullptr, 1, 16);
  if (is("h2d_into_host")) {
    char* plain = static_cast<char*>(std::malloc(16));
    return cudaMemcpy(plain, host.data(), 16, cudaMemcpyHostToDevice);
  }
  if (is("h2d_zero_null")) return cudaMemcpy(nullptr, host.data(), 0, cudaMemcpyHostToDevice);
  if (is("free_null")) return cudaFree(nullptr);
  if (is("free_twice")) {
    cudaFree(other);
    return cudaFree(other);
  }
  if (is("free_inside")) return cudaFree(large + 256);
  if (is("free_host")) return cudaFree(std::malloc(64));
  std::fprintf(stderr, "copy_ranges: unknown form %s\n", name);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    for (const Form& form : kForms) std::printf("%s\n", form.name);
    return 0;
  }
  std::vector<char> host((size_t{2} << 20) + kLarge, 7);
  for (const Form& form : kForms) {
    if (std::strcmp(form.name, argv[1]) != 0) continue;
    std::printf("## %s\n", form.what);
    report(form.name, run(form.name, host));
    return 0;
  }
  std::fprintf(stderr, "copy_ranges: unknown form %s\n", argv[1]);
  return 2;
}
