// The host side of a whole CUDA program in the simulator (`warpsim exec`): what the shim's CUDA
// runtime functions (warpsim/host_runtime.hpp) call. Launches run in the simulator at once, in
// program order (every stream is the null stream); memory is host memory.
//
// When the program runs under `warpsim exec`, every launch is recorded for the report in the
// folder named by kProgramDirEnv (launch_record.hpp has the format); run on its own (or loaded by
// `warpsim run`, which never calls these) nothing is recorded.
//
// This header is compiled into user programs as C++17 with the shim: keep it free of the
// library's C++20 headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpsim::program {

// The values of CUDA's cudaError_t this side returns (the shim's enum has them all).
inline constexpr int kSuccess = 0;
inline constexpr int kErrorInvalidValue = 1;
inline constexpr int kErrorMemoryAllocation = 2;
inline constexpr int kErrorInvalidConfiguration = 9;
inline constexpr int kErrorLaunchMaxDepthExceeded = 65;
inline constexpr int kErrorLaunchPendingCountExceeded = 69;
inline constexpr int kErrorAssert = 710;

struct KernelLaunchRequest {
  const char* kernel = "";  // as written at the launch: "reduce<256>", "ns::scan"
  const char* file = "";    // the launch's source line
  unsigned line = 0;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  std::size_t shared_bytes = 0;  // dynamic shared memory (the third <<<>>> argument)
  const void* stream = nullptr;  // the fourth; streams run in order, so it only names the stream
  // Bit i: argument i is a non-null pointer into no allocation of this runtime (host memory, or
  // the host's address of a __device__ variable), which a GPU kernel may not reach.
  std::uint64_t host_pointer_args = 0;
  // Each argument's value where it is a pointer (else null) and its pointee's size (1 for void),
  // so that an access outside an allocation names the argument and element; `arg_count` of them.
  const void* const* arg_pointers = nullptr;
  const std::size_t* arg_element_sizes = nullptr;
  std::uint32_t arg_count = 0;
  bool cooperative = false;  // cudaLaunchCooperativeKernel: every block resident at once
};

// Runs every thread of the launch through `body(context)` (which calls the kernel with the
// launch's arguments). Returns kSuccess, or kErrorInvalidConfiguration for a shape CUDA refuses
// (nothing runs, as on a GPU; the error is also the next last_error()). A launch that cannot
// complete (deadlock, runaway, a C++ exception in kernel code) ends the program with a message
// on stderr: its buffers would be meaningless, and on a GPU it would hang or fault.
int launch_kernel(const KernelLaunchRequest& request, void (*body)(void*), void* context);

// A launch from device code (CUDA dynamic parallelism, as CUDA 12 defines it): checked now, run
// later. `context` owns copies of the arguments made at the launch; `body(context)` runs one
// thread of the child as launch_kernel's body does, and `release(context)` frees it once the
// child has run or was refused. Every child of a grid runs after the grid's last block has
// finished and before the grid counts as complete (before its host launch returns): in the order
// of the parent's blocks, each block's launches in the order its threads made them, a child's own
// children before the next child, and launches into cudaStreamTailLaunch after all the others.
// That is one order CUDA allows: a child may start any time after its launch, launches into one
// device stream run in launch order, and a parent cannot wait for its children.
// Returns kSuccess, or the error a device launch gets (the launching thread's next device-side
// cudaGetLastError): kErrorInvalidConfiguration for a shape CUDA refuses,
// kErrorLaunchMaxDepthExceeded below the 24th level of nesting. A refused launch is recorded too.
int queue_device_launch(const KernelLaunchRequest& request, void (*body)(void*), void* context,
                        void (*release)(void*));
// Device-side cudaGetLastError (reset = true) and cudaPeekAtLastError: the running thread's last
// device launch error, as CUDA keeps one per thread.
int device_last_error(bool reset);
// Launches from host code so far: what a GPU's host-side hooks count (launch_buffers.hpp).
std::uint64_t host_launch_count();

// cudaGetLastError (reset = true) and cudaPeekAtLastError: the last launch error, 0 when none;
// after a device assert, kErrorAssert for good (a sticky error: reset does not clear it).
int last_error(bool reset);
// The running lane's assert failed (warpsim/device_assert.hpp): its launch, which the lane then
// stops, ends without ending the program, and from then on sticky_error() is kErrorAssert.
void note_device_assert();
// kErrorAssert after a device assert, else kSuccess: what the calls that wait for the device
// (cudaDeviceSynchronize, cudaStreamSynchronize, ...) return.
int sticky_error();

// What a block is for: device memory (cudaMalloc and its kin), which only kernels and the
// runtime's copies and memsets touch, or memory host code may touch too (managed, pinned host).
enum class MemoryKind { device, host_visible };
// cudaMalloc and friends: `bytes` of host memory aligned as cudaMalloc aligns (256 bytes), set
// to zeros (CUDA leaves it undefined), zero bytes giving a null pointer. Null when out of memory.
// Under `exec --check uninit`, device memory starts as the undefined pattern instead
// (warpsim/memory_checks.hpp), so that a kernel's read of bytes nothing wrote is reported.
// Each block lies in its own mapping between two PROT_NONE pages, its end (rounded up to 256
// bytes) against the second: a kernel access past it faults and the crash names the argument
// and element. The bytes between the first guard page and the block, and the rounding after
// it, hold a pattern; a launch after which they changed gets an out_of_bounds diagnostic.
void* allocate(std::size_t bytes, MemoryKind kind);
// Whether `pointer` came from allocate() and is now freed (a null pointer is fine too).
bool release(void* pointer);
// Whether `pointer` lies inside a live allocate() block or a registered symbol.
bool is_device_address(const void* pointer);
// cudaGetSymbolAddress: the symbol's `bytes` at `address` count as device memory from now on.
void register_symbol(const void* address, std::size_t bytes);
// The allocate() block holding `pointer` (symbols are not blocks): its start and size; false
// when none does.
bool allocation_holding(const void* pointer, const void** start, std::size_t* bytes);
// cudaMemcpy's and cudaMemset's ranges, checked as a GPU's runtime checks them
// (docs/gpu-runs/copy-ranges.txt): every device-side range must lie in one live allocation or
// registered symbol (a null, freed or host pointer, or a range a byte past the end, is refused).
// `kind` is the cudaMemcpyKind (4, default: a pointer in an allocation must fit in it); `api`
// and the caller's return address name the call. Returns kSuccess, or kErrorInvalidValue, which
// is then also the next last_error() and is listed by `warpsim exec` (a finding under --check).
int check_copy(const char* api, const void* destination, const void* source, std::size_t bytes,
               int kind, const void* return_address);
int check_memset(const char* api, const void* destination, std::size_t bytes,
                 const void* return_address);
// cudaFree and cudaFreeHost: release(pointer), or, where `pointer` is not an allocation's start
// (freed already, inside one, host memory), kErrorInvalidValue, refused as check_copy refuses.
int release_checked(const char* api, void* pointer, const void* return_address);
// Launches made so far (refused ones included): the last launch's index plus one.
std::uint64_t launch_count();

// Seconds since an arbitrary start, for events: they time the simulator, not a GPU.
double now_seconds();

}  // namespace warpsim::program

// The program reached what the simulator does not simulate (a CUDA runtime or driver API, a
// library's function): it ends at once, with "WHAT is not simulated: API at FILE:LINE", the line
// being that of the call `return_address` returns to (found in the program's debug information,
// shim frames skipped). Under `warpsim exec` the report says it and the exit status is 123; run
// on its own, the program says it on stderr. C linkage: the stubs that warpsim generates at link
// time for a library's missing functions are C.
extern "C" {
[[noreturn]] void warpsim_not_simulated(const char* what, const char* api,
                                        const void* return_address);
// The same where the caller's line is known (a shim function's __builtin_FILE/__builtin_LINE
// default arguments).
[[noreturn]] void warpsim_not_simulated_at(const char* what, const char* api, const char* file,
                                           unsigned line);
}
