// `warpsim run`: any kernel file, compiled with the host compiler against the CUDA shim, loaded and
// launched in the simulator in a child process (see ../shared/spec/run.md for the contract).
//
//   auto spec = warpsim::runner::parse_arg_spec("f32[32]:iota");   // one --arg
//   auto kernels = warpsim::runner::scan_kernels(source_text);      // the __global__ functions
//   KernelFileResult result = warpsim::runner::run_kernel_file(request);   // status, buffers, trace
//
// Everything here but run_kernel_file and list_kernels is a pure function over text and values
// (warpsim/kernel_file.hpp has the short spelling of arguments for tests). Nothing here prints:
// the CLI and the GUI render the values.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "warpsim/expected.hpp"
#include "warpsim/kernel_registry.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/sandbox.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runner {

// ---------------------------------------------------------------------------------------------
// --arg SPEC, --grid, --block

// The element types of --arg buffers and scalars. Every fact about one is a row of one table
// (element_types.cpp); the functions below read it.
enum class ElementType : std::uint8_t { i32, u32, f32, i64, u64, f64, u8, i8, u16, i16, f16, bf16, b8 };

struct ElementTypeFacts {
  // How text, iota and random values become an element's bits.
  enum class Form : std::uint8_t { integer, floating, half, bfloat16, boolean };
  ElementType type{};
  std::string_view name;                    // "f16", as --arg spells it
  std::array<std::string_view, 3> c_names;  // what people write by habit ("__half", "half")
  std::uint8_t size = 0;                    // bytes
  ValueKind kind{};                         // the kernel parameter type it passes as
  Form form{};
  // The trace's type for these bits (32- and 64-bit elements only; none for the rest, which GPU
  // comparisons widen with shown_buffer).
  ValueType value_type = ValueType::none;
  std::int64_t exact_low = 0, exact_high = 0;  // random:SEED:LO:HI's bounds: integers it holds
  std::int64_t random_low = 0, random_high = 0;  // random:SEED's default range
};
std::span<const ElementTypeFacts> element_types();
const ElementTypeFacts& element_facts(ElementType type);

std::string_view to_string(ElementType type);
std::optional<ElementType> element_type_from_string(std::string_view name);
std::size_t element_size(ElementType type);
ValueKind element_kind(ElementType type);
ValueType element_value_type(ElementType type);  // ElementTypeFacts::value_type

// One element as reports show it: the bits of a 32/64-bit ValueType that format_element prints
// (i8 and i16 sign-extended to i32, u8, u16 and b8 as u32, f16 and bf16 as their float value).
struct ShownElement {
  ValueType type = ValueType::none;
  std::uint64_t bits = 0;
};
ShownElement shown_element(ElementType type, std::uint64_t bits);

// A buffer's elements as the GPU comparison takes them: each as shown_element shows it, so 32-
// and 64-bit elements keep their bytes and the 8- and 16-bit ones (f16 and bf16 too) become
// 32-bit elements of the same value. Both sides of a comparison go through it alike.
struct ShownBuffer {
  ValueType type = ValueType::none;
  std::vector<std::byte> bytes;
};
ShownBuffer shown_buffer(ElementType type, std::span<const std::byte> bytes);

// IEEE binary16 and bfloat16 from a float, rounded to nearest even (NaN stays NaN), and back.
std::uint16_t f16_bits(float value);
std::uint16_t bf16_bits(float value);
float f16_value(std::uint16_t bits);
float bf16_value(std::uint16_t bits);

enum class BufferInit : std::uint8_t { zeros, iota, file, list, random, undefined };

struct ArgSpec {
  ElementType type = ElementType::i32;
  bool is_buffer = false;
  std::uint64_t scalar_bits = 0;  // scalar: the value's bits, zero-extended (f32 as its 32 bits)
  std::uint64_t count = 0;        // buffer: number of elements
  BufferInit init = BufferInit::zeros;
  std::string path;                 // init == file: raw little-endian, exactly `count` elements
  std::vector<std::uint64_t> list;  // init == list: each element's bits
  std::uint64_t seed = 0;           // init == random: seeded integers in [low, high]
  std::int64_t low = 0, high = 0;
  // A struct passed by value: its fields in order, each a scalar or a buffer spec (a buffer field
  // is a pointer in the struct to a buffer of its own). `type` and the rest are then unused.
  bool is_struct = false;
  std::vector<ArgSpec> fields;

  std::string type_text() const;  // "i32", "f32[1024]" or "{i32; f32; f32[32]}"
};

// `{FIELD; FIELD; ...}`: a struct argument, each FIELD a scalar or buffer spec as below
// (`{i32:32; f32:0.5; f32[4]:1,2,3,4}`). Fields are separated by ';' since buffer lists hold
// commas; nested structs and arrays in structs are refused.
inline constexpr char kStructOpen = '{';
inline constexpr char kStructClose = '}';
inline constexpr char kFieldSeparator = ';';

// Where a struct argument's fields lie, by the C ABI of x86-64 and of CUDA alike: each field at
// the next multiple of its alignment (scalars: their size; pointers: 8), the struct's alignment
// the largest of its fields', its size rounded up to that alignment (tail padding).
struct StructLayout {
  std::vector<std::size_t> offsets;  // one per field
  std::size_t size = 0;
  std::size_t align = 1;
};
StructLayout struct_layout(const ArgSpec& spec);
// Bytes and alignment of an argument as the kernel receives it: a scalar's element, a buffer's
// pointer (8), a struct's layout.
std::size_t arg_value_size(const ArgSpec& spec);
std::size_t arg_value_align(const ArgSpec& spec);

// The bytes of a struct argument: every scalar field's bits and every buffer field's address
// (`buffer_addresses[i]` for field i; entries of scalar fields are ignored) at their offsets,
// padding zero. The simulator passes host addresses, --gpu device addresses.
std::vector<std::byte> pack_struct(const ArgSpec& spec,
                                   std::span<const std::uint64_t> buffer_addresses);

// Every buffer of an argument list, in order: the buffer arguments and the buffer fields of
// struct arguments. `field` is -1 for a buffer argument, else the field's index.
struct BufferSlot {
  std::size_t arg = 0;
  std::int32_t field = -1;
  const ArgSpec* spec = nullptr;
};
std::vector<BufferSlot> buffer_slots(const std::vector<ArgSpec>& args);
// "--arg 2" or "--arg 2 field 1", as messages name a buffer (arg zero-based).
std::string buffer_label(std::size_t arg, std::int32_t field);
// "arg 1" or "arg 1 field 1", as reports name a buffer (arg zero-based, as --json's "arg").
std::string buffer_name(std::size_t arg, std::int32_t field);

// `TYPE:VALUE` (i32:-3, u32:0xffffffff, f32:0.5, f64:-1e300) or `TYPE[COUNT]:INIT` with INIT one
// of zeros, iota, random:SEED (integers in [-99, 99]; [0, 99] unsigned), random:SEED:LO:HI,
// file:PATH, undefined (memory nothing wrote: the undefined pattern of memory_checks.hpp, whose
// reads --check uninit names), or exactly COUNT comma-separated values. Integers take decimal or
// 0x hex; hex fills the type's width as a bit pattern (i32:0xffffffff is -1). Or a struct,
// `{FIELD; ...}` (above). The error says what is wrong with the spec, without naming which --arg
// it was (a struct's names the field).
Expected<ArgSpec> parse_arg_spec(std::string_view text);

// Element `index` of a `random:SEED:LO:HI` buffer: an integer in [low, high] (as a float for
// f32/f64), the same on every machine (a counter-based generator, no std:: distributions).
std::uint64_t random_element(ElementType type, std::uint64_t seed, std::int64_t low,
                             std::int64_t high, std::uint64_t index);

// The integer `value` as an element of `type` (iota and random buffers): converted to the float
// types (rounded to nearest even), wrapped to the integer types' width as a C cast does, its
// lowest bit for b8.
std::uint64_t integer_element(ElementType type, std::int64_t value);

// One element of `type` from text, as its bits zero-extended to 64.
Expected<std::uint64_t> parse_element(ElementType type, std::string_view text);

// `X` or `X,Y,Z` (also `X,Y`), every extent at least 1.
Expected<Dim3> parse_dim3(std::string_view text);

// Whether `spec` can be passed as `param`; if not, why not (naming both types, not the
// parameter's index).
Expected<void> check_arg_against_param(const ArgSpec& spec, const KernelParam& param);

// Whether the --arg list fits the kernel; if not, one message naming the parameter index, both
// types and the --arg that would fit ("parameter 1 of 'k' (--arg 2): the parameter has type
// 'float*' but the argument is i32[32]; write --arg f32[N]:zeros").
Expected<void> check_args_against_kernel(const std::vector<ArgSpec>& args,
                                         const KernelDescriptor& kernel);

// ---------------------------------------------------------------------------------------------
// The kernel file

struct KernelInfo {
  std::string name;  // qualified, without a leading "::", e.g. "ns::reduce"
  bool is_template = false;
  std::uint32_t line = 0;  // 1-based line of `__global__`
};

// The __global__ functions of a CUDA source, in order of first appearance (each name once).
// Comments, strings and preprocessor lines are skipped; namespaces qualify names.
std::vector<KernelInfo> scan_kernels(std::string_view source);

struct KernelChoice {
  std::string expression;  // C++ id-expression naming it from file scope: "::ns::reduce<256>"
  std::string name;        // for messages and output: "ns::reduce<256>"
};

// Resolves --kernel NAME (plain or qualified, templates as an explicit instantiation `k<256>`)
// against the scanned kernels. A plain name finds a namespaced kernel when only one matches.
// The error lists the kernels of `file_for_messages`.
Expected<KernelChoice> resolve_kernel(const std::vector<KernelInfo>& kernels,
                                    std::string_view requested, std::string_view file_for_messages);

// Rewrites every `extern __shared__ T name[];` (any spacing, __align__/alignas/attributes) into
// a reference to the block's dynamic shared memory, whose address the runtime keeps in the
// thread-local pointer kDynamicSharedBaseSymbol (declared by prepare_source as
// `extern __thread ... warpsim_runner_dynamic_shared_`: blocks may run on several OS threads):
//   T (&name)[] = *reinterpret_cast<T (*)[]>(warpsim_runner_dynamic_shared_);
// Line numbers of all other text are unchanged. kDynamicSharedSymbol is the runtime's own buffer.
// Also moves an alignas written after `__shared__` (which nvcc accepts, C++ does not) to the
// declaration's start: `__shared__ alignas(16) float t[8];` -> `alignas(16) __shared__ float ...`.
inline constexpr const char* kDynamicSharedSymbol = "warpsim_dynamic_shared";
inline constexpr const char* kDynamicSharedBaseSymbol = "warpsim_dynamic_shared_base";
std::string rewrite_extern_shared(std::string_view source);

// Inline PTX: every asm statement whose template reads as PTX (its first word has a '.', or it
// is a `{ ... }` block) is translated into C++ on its own line (sim/runner/ptx_translate.hpp), so
// warp-level instructions run and are traced like their intrinsics. PTX warpsim does not run
// becomes, with `unsupported` compile_error, a static_assert that fails at its line and names the
// instruction; with runtime_stop (what rewrite_user_file and the toolkit's headers use: code that
// is not run must still compile), a call that stops the launch with that message if it runs.
// asm inside a macro's definition is translated there, keeping its continuation lines; a
// parameter stringized into the template (`"ld." #hint ".u32 ..."`) is read as an ld's or st's
// qualifiers, with a check of its spelling at each use. Other asm (a symbol name, x86 in host
// code) is left alone. Line numbers are unchanged.
enum class UnsupportedPtx { compile_error, runtime_stop };
std::string rewrite_inline_ptx(std::string_view source,
                               UnsupportedPtx unsupported = UnsupportedPtx::compile_error);

// Forward progress: puts a tick (device::spin_tick) at the start of every iteration of every
// `for`, `while` and `do` loop, on the loop's own line, so that a lane spinning in a loop yields
// to the lanes and warps it waits for. Line numbers are unchanged.
std::string insert_loop_ticks(std::string_view source);

// The translation unit handed to the compiler: `#line 1 "<absolute_path>"`, the user source with
// its `extern __shared__` arrays and launches rewritten (rewrite_launches), then a block (under `#line 1 "<warpsim-generated>"`) that exports the chosen kernel's
// descriptor as `extern "C" warpsim_kernel_entry()`.
inline constexpr const char* kKernelEntrySymbol = "warpsim_kernel_entry";
std::string prepare_source(std::string_view user_source, std::string_view absolute_path,
                           const KernelChoice& kernel);

// Rewrites every launch `kernel<<<grid, block[, shared[, stream]]>>>(args...)` into a call of
// the shim's launch_kernel (warpsim/host_runtime.hpp), which runs it in the simulator:
//   ::warpsim::shim::launch_kernel("k<4>", __FILE__, __LINE__,
//       ::warpsim::shim::launch_config(grid, block), [&](auto&&... a) { k<4>(a...); })(args...)
// The kernel may be plain, qualified (`::ns::k`), a template with any arguments (`k<512, true>`,
// `k<T, (N > 2)>`, `k<Foo<int, 2>, 3>`) or a function pointer; the arguments may be a pack
// (`(std::forward<A>(a)...)`); the launch may span lines and hold comments. Launches inside a
// macro's definition are rewritten there, keeping its continuation lines; the kernel's name in
// the record is then its macro argument (`"" #k`). Line numbers of all text are unchanged.
// For nvcc (LaunchTarget::gpu_recorder) the launch stays a launch, wrapped so that the GPU build
// of `warpsim exec --gpu` records every launch's buffers (warpsim/gpu_launch_hooks.hpp); the
// configuration goes to the hook, which thus knows the launch's stream (a launch into a graph
// capture is recorded as such, with no synchronising call):
//   ::warpsim::gpu_hooks::launch_kernel("k<4>", __FILE__, __LINE__,
//       ::warpsim::gpu_hooks::launch_shape(grid, block, shared, stream),
//       [&](const ::warpsim::gpu_hooks::LaunchShape& s, auto&&... a) {
//         k<4><<<s.grid, s.block, s.shared_bytes, s.stream>>>(a...); })(args...)
enum class LaunchTarget : std::uint8_t { simulator, gpu_recorder };
std::string rewrite_launches(std::string_view source,
                             LaunchTarget target = LaunchTarget::simulator);

// Each call of one of cub's device-wide algorithms (`cub::DeviceReduce::Sum(...)`, any
// `cub::Device*::name[<...>](...)`) becomes
//   (::warpsim::shim::LibraryCallSite(__FILE__, __LINE__), cub::DeviceReduce::Sum(...))
// so that the kernels cub launches inside (through Thrust's triple_chevron) are listed at the
// user's line (warpsim/host_runtime.hpp). Line numbers are unchanged.
std::string mark_library_calls(std::string_view source);

// Host code may name its own variables, parameters and members as CUDA's built-ins
// (`dim3 gridDim(16), blockDim(256); k<<<gridDim, blockDim>>>(...)`), which the shim defines as
// macros for kernel code. Each such declaration in a function, lambda or class, and every
// mention of it in its scope (`config.gridDim` too), becomes `warpsim_host_gridDim`; kernel code
// keeps reading the built-ins. Line numbers are unchanged.
std::string rename_host_builtins(std::string_view source);

// After the body of each non-template kernel defined at namespace scope (by an unqualified name,
// once in the file), on the same line:
//   WARPSIM_REGISTER_KERNEL(k, "k")
// so that the program finds the kernel again from its address cast to void* (cudaLaunchKernel's C
// form, cudaKernelNodeParams::func: warpsim/kernel_addresses.hpp). The macro registers it in a
// whole program and is empty in a kernel file run one kernel at a time, whose host code never
// runs (WARPSIM_KERNEL_FILE). Line numbers are unchanged.
std::string register_defined_kernels(std::string_view source);

// Compiler flags a kernel file needs besides the user's: -DWARPSIM_GRID_CONSTANT_PARAMETERS=1
// where it names __grid_constant__ (warpsim/memory_intrinsics.hpp: such parameters are copies on
// the lane's stack, like locals).
std::vector<std::string> source_flags(std::string_view user_source);

// Every rewriter above, in order, on one of the user's files (the file given, or a header it
// includes: see sim/runner/user_headers.hpp): kernel registrations, host built-in names, inline
// PTX, `extern __shared__`, launches, loop ticks. For nvcc (gpu_recorder) only the launches are wrapped.
// Line numbers are unchanged; no prelude, no #line.
// PTX warpsim does not run stops the launch when a lane reaches it (rewrite_inline_ptx's
// runtime_stop), in the file given and in its headers alike: code never run still compiles.
std::string rewrite_user_file(std::string_view source,
                              LaunchTarget target = LaunchTarget::simulator);

// The translation unit of a whole program (`warpsim exec`): prepare_source without the kernel
// entry point; `main` is the user's.
std::string prepare_program_source(std::string_view user_source, std::string_view absolute_path);
// A program's host file (.c built as C, .cpp as C++: nvcc has the host compiler build them): no
// launches, no force-included shim; the
// user's text under `#line 1 "<absolute_path>"` only.
std::string prepare_c_program_source(std::string_view user_source, std::string_view absolute_path);
// The same program for nvcc with its launches recorded (LaunchTarget::gpu_recorder), under
// `#line 1 "<absolute_path>"`; compiled with the warpsim include folder on the include path.
std::string prepare_gpu_program_source(std::string_view user_source,
                                       std::string_view absolute_path);
// The nvcc build of `exec --gpu`: writes the program `file` as prepare_gpu_program_source makes
// it, and the user's headers it includes with their launches wrapped alike
// (sim/runner/user_headers.hpp), into `dir`; returns the program's path there. `user_flags`:
// user_compiler_flags' -I and -D; `warpsim_include_dir`: the folder of warpsim/*.hpp, which the
// nvcc build also gets with -I.
Expected<std::string> write_gpu_program(const std::string& file,
                                        const std::vector<std::string>& user_flags,
                                        const std::string& warpsim_include_dir,
                                        const std::string& dir);

// ---------------------------------------------------------------------------------------------
// The compiled-kernel cache (<cache>/kernels: <hash>.so, .deps, .cu per compiled source)

struct CacheLimits {
  std::uint64_t max_bytes = std::uint64_t{512} << 20;  // $WARPSIM_CACHE_MAX_MB overrides
  std::int64_t keep_recent_seconds = 3600;  // never drop an entry used this recently
};
struct CachePruning {
  std::size_t removed = 0;      // compiled kernels dropped
  std::uint64_t freed = 0;      // bytes
  std::uint64_t remaining = 0;  // bytes left in the cache
};
// Drops compiled kernels, least recently used first (a cache hit counts as a use), until the
// folder holds at most limits.max_bytes. An entry used within keep_recent_seconds stays even over
// the limit: another warpsim may be about to load it. Leftovers of interrupted compiles
// (*.tmp.PID.THREAD) older than that go too. warpsim run prunes after every compile it adds.
CachePruning prune_kernel_cache(const std::string& kernels_dir, const CacheLimits& limits);

// ---------------------------------------------------------------------------------------------
// Running

// One run of a kernel file: what `warpsim run` takes, less how to show the outcome.
struct KernelFileRequest {
  std::string file;    // the kernel file (relative to the working directory, or absolute)
  std::string kernel;  // as --kernel takes it: "reduce", "ns::reduce", "reduce<256>"
  Dim3 grid{}, block{};
  std::vector<ArgSpec> args;  // one per kernel parameter, in order
  ConvergencePolicy policy = ConvergencePolicy::maximal;
  std::uint64_t seed = 1;
  std::uint64_t order_seed = 0;  // LaunchOptions::order_seed: 0 in order, else seeded block/warp orders
  std::uint64_t max_steps = LaunchOptions{}.max_steps;
  double timeout_seconds = 60;
  std::size_t shared_bytes = 48 * 1024;
  // The architecture the file is compiled for, as nvcc's -arch names it: sm_70, sm_75, sm_80,
  // sm_86, sm_87, sm_89 or sm_90. It sets __CUDA_ARCH__ (900 for sm_90) and which intrinsics
  // exist (__reduce_*_sync needs sm_80); an unknown name is bad input.
  std::string arch = "sm_90";
  bool record_steps = true;           // false: steps are counted; the trace keeps the rest
  bool keep_initial_buffers = false;  // fill KernelFileResult::initial_buffers (for a GPU run)
  bool color_compiler_output = false; // a failed compile's output with the compiler's colours
  // For the kernel compiler, as nvcc takes them: -I DIR (searched after the CUDA shim, so the
  // simulated CUDA headers stay in front of a toolkit's) and -D NAME or -D NAME=VALUE.
  std::vector<std::string> include_dirs{};
  std::vector<std::string> defines{};
  // `--check races` / `--check uninit`: the kernel is compiled with -fsanitize=thread (a second
  // cached object) and every access to the argument buffers and to __shared__ memory is checked
  // (warpsim/memory_checks.hpp); what is found is among the trace's diagnostics.
  bool check_races = false;
  bool check_uninitialized_shared = false;
  // `--check bounds` (and every other --check): an access just before or after an argument
  // buffer or the dynamic shared memory stops the launch before it happens, naming the buffer,
  // element, lane and line, with every finding made until then (MemoryChecks::bounds).
  bool check_bounds = false;
  bool any_check() const { return check_races || check_uninitialized_shared || check_bounds; }
  // Untrusted code (a student's submission): its compile and its run inside this sandbox
  // (warpsim/sandbox.hpp). Inactive by default.
  Sandbox sandbox{};
};

// include_dirs and defines as compiler flags ("-I/abs/dir", "-DNAME=VALUE"); the error names a
// folder that does not exist or a NAME that is no identifier.
Expected<std::vector<std::string>> user_compiler_flags(const std::vector<std::string>& include_dirs,
                                                       const std::vector<std::string>& defines);

// `--check NAMES`: turns on the checks named, comma-separated: races, uninit, bounds, all. Every
// check includes bounds. The error names the unknown word.
Expected<void> add_memory_checks(std::string_view names, KernelFileRequest& request);

// A buffer argument's bytes at one moment (before or after the launch).
struct OutputBuffer {
  std::size_t arg = 0;  // zero-based parameter index
  ElementType type = ElementType::i32;
  std::vector<std::byte> bytes;  // the elements, little-endian
  std::int32_t field = -1;       // the buffer of this field of a struct argument; -1: the argument's
  std::uint64_t count() const { return bytes.size() / element_size(type); }
  std::uint64_t element(std::uint64_t index) const;  // bits of one element, zero-extended
};

// Exit statuses of `warpsim run` (run.md).
inline constexpr int kExitRan = 0;
inline constexpr int kExitKernelFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNoGpu = 3;  // --gpu without a usable CUDA device
// The launch completed and the memory checks found something: a data race, an uninitialised
// read, or an out-of-bounds write (is_memory_finding). The same number as `warpsim exec
// --check`'s, distinct from every other status of either command.
inline constexpr int kExitFindings = 122;

// data_race, uninitialized_shared_read, uninitialized_global_read (exec), out_of_bounds: what
// --check (and, for writes before a buffer, every run) finds; these give kExitFindings where the
// launch completed.
bool is_memory_finding(DiagnosticKind kind);

// How a run of a kernel file ended: as the launch ended (the first four, as in LaunchStatus), or
// stopped from outside the launch.
enum class RunStatus : std::uint8_t {
  completed,  // every lane returned (diagnostics may be present)
  deadlock,
  step_budget_exceeded,
  kernel_exception,
  crashed,    // a signal stopped the kernel's process (bad pointer, out of bounds, ...)
  timeout,    // the wall-clock limit passed
  bad_input,  // it never ran: unreadable file, unknown kernel, wrong arguments, compile error
};
std::string_view to_string(RunStatus status);
// kExitRan for completed, kExitBadInput for bad_input, kExitKernelFailed for the rest.
int exit_status(RunStatus status);

// The ElementType that holds a T: f32 for float, i32 for int, u64 for std::uint64_t, b8 for bool,
// i8 for signed char (and char on x86-64), u16 for unsigned short, ... (f16 and bf16 have no
// host type here: spell them with parse_arg_spec("f16[4]:1,2,3,4")).
template <class T>
constexpr ElementType element_type_of() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    (std::is_integral_v<T> && sizeof(T) <= 8),
                "kernel file arguments are integers, bool, float or double");
  if constexpr (std::is_same_v<T, bool>) {
    return ElementType::b8;
  } else if constexpr (std::is_floating_point_v<T>) {
    return sizeof(T) == 4 ? ElementType::f32 : ElementType::f64;
  } else if constexpr (std::is_signed_v<T>) {
    return sizeof(T) == 1   ? ElementType::i8
           : sizeof(T) == 2 ? ElementType::i16
           : sizeof(T) == 4 ? ElementType::i32
                            : ElementType::i64;
  } else {
    return sizeof(T) == 1   ? ElementType::u8
           : sizeof(T) == 2 ? ElementType::u16
           : sizeof(T) == 4 ? ElementType::u32
                            : ElementType::u64;
  }
}

// The one result of running a kernel file: what `warpsim run` prints, what the GUI, the lessons
// and the grader read. Every way a run can end is here as a status, with the diagnostic that
// explains it in the trace (crashes, deadlocks, timeouts included).
struct KernelFileResult {
  RunStatus status = RunStatus::bad_input;
  std::string file;               // as the request named it
  std::string kernel;             // as resolved: "ns::reduce<256>"
  std::string kernel_expression;  // naming it from file scope: "::ns::reduce<256>"
  Dim3 grid{}, block{};
  std::string message;  // empty when completed; else why the run stopped or never started (one line)
  std::string details;  // bad_input from a compile: the compiler's output, whole lines
  std::uint64_t steps = 0;  // warp-level operations simulated
  // A timeout: the seconds the kernel's process had spent on a CPU, and ready to run but waiting
  // for one (other programs had the cores), when the wall-clock limit passed (-1: not known, or
  // no timeout). Much waiting: the machine was busy, and the limit says little of the kernel.
  double cpu_seconds_at_limit = -1;
  double wait_seconds_at_limit = -1;
  // One line each about the file as compiled, e.g. a kernel whose whole body the preprocessor
  // removed for the chosen architecture (it completes with 0 steps and does nothing).
  std::vector<std::string> warnings;
  std::vector<OutputBuffer> buffers;          // every buffer argument, in parameter order
  std::vector<OutputBuffer> initial_buffers;  // the same before the launch (keep_initial_buffers)
  // The launch's trace: steps (when recorded), diagnostics and printf. A launch that never
  // returned (crashed, timeout) has no steps; its diagnostic is there all the same.
  Trace trace;

  // As `warpsim run` would exit: kExitRan, kExitKernelFailed, kExitBadInput, or kExitFindings
  // for a completed run with a memory-check finding among its diagnostics.
  int exit_status() const;

  // Parameter `arg`'s buffer as T's (float for f32, int for i32, ...). Throws
  // std::invalid_argument when that parameter is no buffer or holds another element type.
  // `field`: the buffer of that field of a struct argument.
  template <class T>
  std::vector<T> buffer(std::size_t arg, std::int32_t field = -1) const {
    const OutputBuffer& found = buffer_of(arg, element_type_of<T>(), field);
    std::vector<T> values(found.bytes.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), found.bytes.data(), values.size() * sizeof(T));
    return values;
  }
  // Parameter `arg`'s buffer, which must hold `type`; throws as buffer<T> does.
  const OutputBuffer& buffer_of(std::size_t arg, ElementType type, std::int32_t field = -1) const;
};

// A whole text file (a kernel file, a lesson's text); the error names the file and why.
Expected<std::string> read_text_file(const std::string& path);

// A kernel of a file, as `--list-kernels` shows it.
struct KernelListing {
  KernelInfo kernel;
  bool from_macro = false;  // declared by a macro: found in the preprocessed file (line 0)
};
// The kernels of `file`: those written in it, then those that macros declare.
Expected<std::vector<KernelListing>> list_kernels(const std::string& file);

// Compiles (or finds in the cache) the kernel file and runs it in a child process, as
// `warpsim run` does; prints nothing. Outside failures (files, compiler) come back as bad_input
// with their message, misbehaving kernels as their status and diagnostics: it does not throw.
KernelFileResult run_kernel_file(const KernelFileRequest& request);

}  // namespace warpsim::runner
