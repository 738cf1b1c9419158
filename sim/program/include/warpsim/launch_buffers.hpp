// Every launch's buffers, as `warpsim exec --gpu` compares them: after each launch of a whole
// program, the allocation behind each pointer argument (the whole cudaMalloc'd block, not only
// what the kernel wrote) is hashed and, within a budget, saved. The simulated program
// (warpsim/host_runtime.hpp) and the nvcc-built one (warpsim/gpu_launch_hooks.hpp) both record
// through this header into the folder named by kLaunchBuffersDirEnv, in one format:
//
//   <dir>/buffers.tsv, one line per launch and per buffer, tab-separated:
//     L  <launch>  <status>  <kernel>     a launch made and run then
//     G  <launch>  <status>  <kernel>     a launch inside a graph (no B lines follow)
//     A  <launch>  <status>  <kernel>     a launch made without <<<>>> (no B lines follow)
//     B  <launch>  <arg>  <type>  <element bytes>  <offset>  <bytes>  <hash>  <data file or ->
//   <dir>/<launch>-<arg>.bin: the buffer's bytes (while the budget lasts; then "-")
//
// <launch> counts every launch from 0 in program order; <status> is the launch's cudaError_t (0:
// it ran; nothing of a launch that did not run is recorded); <arg> the zero-based argument;
// <type> the pointee's element type (f32, i32, u8, f16, ... or "bytes"); <offset> where the
// argument points into its allocation; <hash> FNV-1a (64-bit, hex) of the allocation's bytes.
// An allocation passed twice to one launch is recorded once, at its first argument.
// G: on the GPU side a <<<>>> launch made while its stream was capturing a graph (it runs when
// the graph is launched, where the GPU side's hooks do not see it; its buffers are not
// recorded); on the simulator's side a kernel run by a graph launch (a captured launch or a
// kernel node). A: on the simulator's side a launch through the runtime's launch functions
// (cudaLaunchKernel, cudaLaunchCooperativeKernel, cudaLaunchKernelEx), which the GPU side's hooks,
// rewriting <<<>>> only, do not see. Launches are paired L by L, in order; G and A lines are
// counted, never paired.
//
// Compiled into user programs, by the host compiler (with the shim) and by nvcc: C++17, no
// library headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "warpsim/kernel_registry.hpp"

namespace warpsim::launch_buffers {

inline constexpr const char* kLaunchBuffersDirEnv = "WARPSIM_LAUNCH_BUFFERS_DIR";
inline constexpr const char* kIndexFile = "buffers.tsv";
// Bytes saved per run (each side); buffers past it are hashed only.
inline constexpr std::uint64_t kDataBudget = std::uint64_t{512} << 20;

// The element type named in the index, from the pointee. Types the header cannot see (the
// toolkit's __half on the GPU side) are named by specialising element_name_of.
template <class T, class = void>
struct element_name_of {
  static constexpr const char* value = "bytes";
};
template <class T>
struct element_name_of<T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>>> {
  using U = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::common_type<T>>;
  using V = typename U::type;
  static constexpr const char* pick() {
    if constexpr (std::is_same_v<V, bool>) {
      return "b8";
    } else if constexpr (std::is_floating_point_v<V>) {
      return sizeof(V) == 4 ? "f32" : sizeof(V) == 8 ? "f64" : "bytes";
    } else if constexpr (std::is_signed_v<V>) {
      return sizeof(V) == 1 ? "i8" : sizeof(V) == 2 ? "i16" : sizeof(V) == 4 ? "i32" : "i64";
    } else {
      return sizeof(V) == 1 ? "u8" : sizeof(V) == 2 ? "u16" : sizeof(V) == 4 ? "u32" : "u64";
    }
  }
  static constexpr const char* value = pick();
};
// The shim's __half and __nv_bfloat16 name their kind (kernel_registry.hpp).
template <class T>
struct element_name_of<T, std::void_t<decltype(T::warpsim_value_kind)>> {
  static constexpr const char* value = T::warpsim_value_kind == ValueKind::half       ? "f16"
                                       : T::warpsim_value_kind == ValueKind::bfloat16 ? "bf16"
                                                                                     : "bytes";
};

// How a launch's line begins: "L", "G" or "A" (above).
enum class LaunchKind : unsigned char { made, in_graph, without_chevrons };

// Where a pointer lies: the allocation holding it, when it is one of the program's.
struct Extent {
  bool found = false;
  const void* base = nullptr;
  std::size_t bytes = 0;
};

inline std::uint64_t fnv1a(const unsigned char* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

// A launch argument as the recording sees it: a pointer (null for any other argument) and the
// element type it points to.
struct PointerArg {
  const void* address = nullptr;
  const char* type = "bytes";
  std::size_t element_bytes = 1;
};
// The allocation holding a pointer; copying an allocation to host memory (false: it cannot).
using LocateFn = Extent (*)(const void* pointer);
using ReadFn = bool (*)(void* host, const void* base, std::size_t bytes);

// The recording of one program run: off unless kLaunchBuffersDirEnv names a folder.
class Recorder {
 public:
  static Recorder& instance() {
    static Recorder recorder;
    return recorder;
  }
  bool enabled() const { return index_ != nullptr; }

  void launch(std::uint64_t launch, const char* kernel, int status,
              LaunchKind kind = LaunchKind::made) {
    if (!enabled()) return;
    const char* line = kind == LaunchKind::in_graph           ? "G"
                       : kind == LaunchKind::without_chevrons ? "A"
                                                              : "L";
    std::fprintf(index_, "%s\t%llu\t%d\t%s\n", line,
                 static_cast<unsigned long long>(launch), status, plain(kernel).c_str());
    std::fflush(index_);
  }

  // `read(host, base, bytes)` copies the allocation to host memory; false when it cannot.
  void buffer(std::uint64_t launch, unsigned arg, const char* type, std::size_t element_bytes,
              std::size_t offset, const Extent& extent, ReadFn read) {
    if (!enabled()) return;
    std::vector<unsigned char> bytes(extent.bytes);
    if (!read(bytes.data(), extent.base, extent.bytes)) return;
    std::string data = "-";
    if (used_ + bytes.size() <= kDataBudget) {
      data = std::to_string(launch) + "-" + std::to_string(arg) + ".bin";
      if (std::FILE* f = std::fopen((dir_ + "/" + data).c_str(), "wb")) {
        const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
        if (std::fclose(f) == 0 && written) {
          used_ += bytes.size();
        } else {
          data = "-";
        }
      } else {
        data = "-";
      }
    }
    std::fprintf(index_, "B\t%llu\t%u\t%s\t%zu\t%zu\t%zu\t%016llx\t%s\n",
                 static_cast<unsigned long long>(launch), arg, type, element_bytes, offset,
                 bytes.size(), static_cast<unsigned long long>(fnv1a(bytes.data(), bytes.size())),
                 data.c_str());
    std::fflush(index_);
  }

  // Every pointer argument of a launch that ran: `locate(pointer)` gives its allocation. Only
  // the description of the arguments is a template (one per launch site and argument types);
  // the recording is not.
  template <class... Values>
  void pointer_args(std::uint64_t launch, const std::tuple<Values...>& values, LocateFn locate,
                    ReadFn read) {
    if (!enabled()) return;
    PointerArg args[sizeof...(Values) + 1] = {};
    describe_args(values, args, std::index_sequence_for<Values...>{});
    pointer_args(launch, args, sizeof...(Values), locate, read);
  }
  void pointer_args(std::uint64_t launch, const PointerArg* args, std::size_t count,
                    LocateFn locate, ReadFn read) {
    std::vector<const void*> seen;
    for (std::size_t i = 0; i < count; ++i) {
      const PointerArg& a = args[i];
      if (a.address == nullptr) continue;
      const Extent extent = locate(a.address);
      if (!extent.found) continue;
      bool recorded = false;
      for (const void* base : seen) recorded = recorded || base == extent.base;
      if (recorded) continue;
      seen.push_back(extent.base);
      const std::size_t offset = static_cast<std::size_t>(static_cast<const char*>(a.address) -
                                                          static_cast<const char*>(extent.base));
      buffer(launch, static_cast<unsigned>(i), a.type, a.element_bytes, offset, extent, read);
    }
  }

  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

 private:
  Recorder() {
    const char* dir = std::getenv(kLaunchBuffersDirEnv);
    if (dir == nullptr || *dir == '\0') return;
    dir_ = dir;
    index_ = std::fopen((dir_ + "/" + kIndexFile).c_str(), "w");
  }
  ~Recorder() {
    if (index_ != nullptr) std::fclose(index_);
  }

  static std::string plain(const char* text) {
    std::string out;
    for (const char* p = text; p != nullptr && *p != '\0'; ++p) {
      out += (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p;
    }
    return out;
  }

  template <class Values, std::size_t... I>
  static void describe_args(const Values& values, PointerArg* args, std::index_sequence<I...>) {
    ((args[I] = describe_arg(std::get<I>(values))), ...);
  }

  template <class Value>
  static PointerArg describe_arg(const Value& value) {
    if constexpr (std::is_pointer_v<Value> &&
                  !std::is_function_v<std::remove_pointer_t<Value>>) {
      using Pointee = std::remove_cv_t<std::remove_pointer_t<Value>>;
      std::size_t element_bytes = 1;
      if constexpr (std::is_object_v<Pointee>) element_bytes = sizeof(Pointee);
      return {const_cast<const void*>(static_cast<const volatile void*>(value)),
              element_name_of<Pointee>::value, element_bytes};
    } else {
      return {};
    }
  }

  std::string dir_;
  std::FILE* index_ = nullptr;
  std::uint64_t used_ = 0;
};

}  // namespace warpsim::launch_buffers
