// What a GPU does when every lane of a converged warp calls a collective with one mask that does
// not name all of them (UB in CUDA: the caller's own bit must be set): does it matter whether
// the mask is a compile-time constant or a value only known at run time, which collective it
// is, and what the predicate or value is? The spec's [HW90] line says `__ballot_sync(0xFFFF, 1)`
// and `__shfl_sync(0, v, 0)` ran on an H100 and returned values; per_lane_masks.cu saw a
// run-time mask 0x0000ffff trap on an H200. Each form runs in its own process (a trap ends the
// CUDA context). Built with nvcc and run by tests/shim/record_mask_probes.sh, which also keeps
// the forms' SASS.
//
//   caller_not_in_mask            list the forms
//   caller_not_in_mask FORM MASK  run FORM with MASK (hex) as the run-time mask argument
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Each form is its own kernel so the compiler sees a constant mask where the source has one.
// `m` is the run-time mask (a kernel argument); `v` each lane's input; `lane` its index.
#define FORMS(X)                                                  \
  X(ballot_const16_pred1, __ballot_sync(0x0000ffffu, 1))          \
  X(ballot_const16_predlane, __ballot_sync(0x0000ffffu, v > 0))   \
  X(ballot_const0_predlane, __ballot_sync(0u, v > 0))             \
  X(ballot_arg_pred1, __ballot_sync(m, 1))                        \
  X(ballot_arg_predlane, __ballot_sync(m, v > 0))                 \
  X(any_const16, __any_sync(0x0000ffffu, v > 0))                  \
  X(any_arg, __any_sync(m, v > 0))                                \
  X(all_arg, __all_sync(m, v > 0))                                \
  X(shfl_const0, __shfl_sync(0u, v, 0))                           \
  X(shfl_const16, __shfl_sync(0x0000ffffu, v, 0))                 \
  X(shfl_arg, __shfl_sync(m, v, 0))                               \
  X(shfl_xor_const16, __shfl_xor_sync(0x0000ffffu, v, 1))         \
  X(shfl_xor_arg, __shfl_xor_sync(m, v, 1))                       \
  X(shfl_down_arg, __shfl_down_sync(m, v, 1))                     \
  X(reduce_add_const16, __reduce_add_sync(0x0000ffffu, (unsigned)v)) \
  X(reduce_add_arg, __reduce_add_sync(m, (unsigned)v))            \
  X(match_any_const16, __match_any_sync(0x0000ffffu, v))          \
  X(match_any_arg, __match_any_sync(m, v))                        \
  X(syncwarp_const16, (__syncwarp(0x0000ffffu), v))               \
  X(syncwarp_arg, (__syncwarp(m), v))

// The same calls after a loop whose trip count differs from lane to lane: the lanes diverge and
// reconverge before the call, so the compiler cannot assume the warp is converged there.
#define FORMS_AFTER_LOOP(X)                                       \
  X(ballot_const16_after_loop, __ballot_sync(0x0000ffffu, v > 0)) \
  X(ballot_arg_after_loop, __ballot_sync(m, v > 0))               \
  X(shfl_arg_after_loop, __shfl_sync(m, v, 0))                    \
  X(reduce_add_arg_after_loop, __reduce_add_sync(m, (unsigned)v)) \
  X(syncwarp_arg_after_loop, (__syncwarp(m), v))

#define KERNEL(name, expr)                                                      \
  __global__ void name(const int* in, unsigned* out, unsigned m) {              \
    const int v = in[threadIdx.x];                                              \
    (void)v;                                                                    \
    (void)m;                                                                    \
    out[threadIdx.x] = (unsigned)(expr);                                        \
  }
FORMS(KERNEL)

#define KERNEL_AFTER_LOOP(name, expr)                                           \
  __global__ void name(const int* in, unsigned* out, unsigned m) {              \
    int v = in[threadIdx.x];                                                    \
    for (unsigned i = 0; i < threadIdx.x % 3; ++i) v += in[(v + i) & 31];      \
    (void)m;                                                                    \
    out[threadIdx.x] = (unsigned)(expr);                                        \
  }
FORMS_AFTER_LOOP(KERNEL_AFTER_LOOP)

using Kernel = void (*)(const int*, unsigned*, unsigned);
struct Form {
  const char* name;
  Kernel kernel;
};
#define ENTRY(name, expr) {#name, name},
static const Form forms[] = {FORMS(ENTRY) FORMS_AFTER_LOOP(ENTRY)};

int main(int argc, char** argv) {
  if (argc < 3) {
    for (const Form& form : forms) std::printf("%s\n", form.name);
    return 0;
  }
  const Form* form = nullptr;
  for (const Form& f : forms) {
    if (std::strcmp(f.name, argv[1]) == 0) form = &f;
  }
  if (form == nullptr) {
    std::fprintf(stderr, "caller_not_in_mask: no form %s\n", argv[1]);
    return 2;
  }
  const unsigned mask = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 16));
  int host_in[32];
  for (int i = 0; i < 32; ++i) host_in[i] = (i * 7) % 5 - 1;  // some lanes positive, some not
  int* in;
  unsigned* out;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, 32 * sizeof(unsigned));
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemset(out, 0xee, 32 * sizeof(unsigned));
  form->kernel<<<1, 32>>>(in, out, mask);
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("%-24s m=0x%08x: %s", form->name, mask, cudaGetErrorString(error));
  if (error != cudaSuccess) {
    std::printf("\n");
    return 0;
  }
  unsigned result[32];
  cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
  std::printf("; lanes 0-31:");
  for (int lane = 0; lane < 32; ++lane) std::printf(" %x", result[lane]);
  std::printf("\n");
  return 0;
}
