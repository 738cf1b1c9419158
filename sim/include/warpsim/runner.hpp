// `warpsim run`: any kernel file, compiled with the host compiler against the CUDA shim, loaded and
// launched in the simulator in a child process (see ../shared/spec/run.md for the contract).
//
//   auto spec = warpsim::runner::parse_arg_spec("f32[32]:iota");   // one --arg
//   auto kernels = warpsim::runner::scan_kernels(source_text);      // the __global__ functions
//   int status = warpsim::runner::run_kernel_file(options, std::cout, std::cerr);
//
// Everything here but run_kernel_file is a pure function over text and values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpsim/kernel_registry.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runner {

// A value or the one-line reason there is none (external input: arguments, files, compilers).
template <class T>
struct Result {
  std::optional<T> value;
  std::string error;

  static Result ok(T v) { return Result{std::move(v), {}}; }
  static Result fail(std::string message) { return Result{std::nullopt, std::move(message)}; }
  explicit operator bool() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  T& operator*() { return *value; }
  const T* operator->() const { return &*value; }
};

// ---------------------------------------------------------------------------------------------
// --arg SPEC, --grid, --block

enum class ElementType : std::uint8_t { i32, u32, f32, i64, u64, f64 };
std::string_view to_string(ElementType type);
std::optional<ElementType> element_type_from_string(std::string_view name);
std::size_t element_size(ElementType type);
ValueKind element_kind(ElementType type);

enum class BufferInit : std::uint8_t { zeros, iota, file, list };

struct ArgSpec {
  ElementType type = ElementType::i32;
  bool is_buffer = false;
  std::uint64_t scalar_bits = 0;  // scalar: the value's bits, zero-extended (f32 as its 32 bits)
  std::uint64_t count = 0;        // buffer: number of elements
  BufferInit init = BufferInit::zeros;
  std::string path;                 // init == file: raw little-endian, exactly `count` elements
  std::vector<std::uint64_t> list;  // init == list: each element's bits

  std::string type_text() const;  // "i32" or "f32[1024]"
};

// `TYPE:VALUE` (i32:-3, u32:0xffffffff, f32:0.5, f64:-1e300) or `TYPE[COUNT]:INIT` with INIT one
// of zeros, iota, file:PATH, or exactly COUNT comma-separated values. Integers take decimal or
// 0x hex; hex fills the type's width as a bit pattern (i32:0xffffffff is -1). The error says what
// is wrong with the spec, without naming which --arg it was.
Result<ArgSpec> parse_arg_spec(std::string_view text);

// One element of `type` from text, as its bits zero-extended to 64.
Result<std::uint64_t> parse_element(ElementType type, std::string_view text);

// `X` or `X,Y,Z` (also `X,Y`), every extent at least 1.
Result<Dim3> parse_dim3(std::string_view text);

// Checks a launch shape against CUDA's limits (1024 threads per block, ...); empty when fine.
std::string check_launch_shape(Dim3 grid, Dim3 block);

// Whether `spec` can be passed as `param`; empty when it can, otherwise why not (naming both
// types, not the parameter's index).
std::string check_arg_against_param(const ArgSpec& spec, const KernelParam& param);

// Whether the --arg list fits the kernel: empty when it does, otherwise one message naming the
// parameter index, both types and the --arg that would fit ("parameter 1 of 'k' (--arg 2): the
// parameter has type 'float*' but the argument is i32[32]; write --arg f32[N]:zeros").
std::string check_args_against_kernel(const std::vector<ArgSpec>& args,
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
Result<KernelChoice> resolve_kernel(const std::vector<KernelInfo>& kernels,
                                    std::string_view requested, std::string_view file_for_messages);

// Rewrites every `extern __shared__ T name[];` (any spacing, __align__/alignas/attributes) into
// a reference to the runtime's dynamic shared buffer (the symbol below, declared by
// prepare_source as `warpsim_runner_dynamic_shared_`):
//   T (&name)[] = *reinterpret_cast<T (*)[]>(warpsim_runner_dynamic_shared_);
// Line numbers of all other text are unchanged.
inline constexpr const char* kDynamicSharedSymbol = "warpsim_dynamic_shared";
std::string rewrite_extern_shared(std::string_view source);

// The translation unit handed to the compiler: `#line 1 "<absolute_path>"`, the rewritten user
// source, then a block (under `#line 1 "<warpsim-generated>"`) that exports the chosen kernel's
// descriptor as `extern "C" warpsim_kernel_entry()`.
inline constexpr const char* kKernelEntrySymbol = "warpsim_kernel_entry";
std::string prepare_source(std::string_view user_source, std::string_view absolute_path,
                           const KernelChoice& kernel);

// ---------------------------------------------------------------------------------------------
// Running

struct RunOptions {
  std::string file;    // the kernel file as the user named it
  std::string kernel;  // --kernel, as given
  Dim3 grid{}, block{};
  std::vector<ArgSpec> args;  // one per kernel parameter, in order
  bool json = false;
  std::string trace_path;  // --trace; empty for none
  ConvergencePolicy policy = ConvergencePolicy::maximal;
  std::uint64_t seed = 1;
  std::uint64_t max_steps = LaunchOptions{}.max_steps;
  double timeout_seconds = 60;
  std::size_t shared_bytes = 48 * 1024;
};

// Exit statuses of `warpsim run` (run.md).
inline constexpr int kExitRan = 0;
inline constexpr int kExitKernelFailed = 1;
inline constexpr int kExitBadInput = 2;

// Prints the kernels of `file` (one per line, templates as `name<...>`); kExitBadInput when the
// file cannot be read.
int list_kernels(const std::string& file, std::ostream& out, std::ostream& err);

// Compiles (or finds in the cache) the kernel file, runs it in a child process and reports on
// `out` (JSON with options.json) and `err` (errors). Returns one of the exit statuses above.
int run_kernel_file(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace warpsim::runner
