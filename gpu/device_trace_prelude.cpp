#include "device_trace_prelude.hpp"

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "warpsim/intrinsic_table.hpp"

namespace warpsim::gpu {
namespace {

constexpr std::array kTracedTypes{
    TracedType{"int", ValueType::i32},
    TracedType{"unsigned int", ValueType::u32},
    TracedType{"long", ValueType::i64},
    TracedType{"unsigned long", ValueType::u64},
    TracedType{"long long", ValueType::i64},
    TracedType{"unsigned long long", ValueType::u64},
    TracedType{"float", ValueType::f32},
    TracedType{"double", ValueType::f64},
    TracedType{"__half", ValueType::f16},
    TracedType{"__half2", ValueType::f16x2},
    TracedType{"__nv_bfloat16", ValueType::bf16},
    TracedType{"__nv_bfloat162", ValueType::bf16x2},
};
constexpr std::size_t kMatchTypes = 8;  // CUDA's __match_*_sync take the first eight

// Layout, state and the one function that appends a record.
constexpr const char* kRecorder = R"cuda(
struct WarpsimDeviceCall {
  unsigned long long input;
  unsigned long long output;
  int arg;
  int width;
  unsigned mask;
  unsigned line;
  unsigned char op, type, pred, reserved0;
  unsigned reserved1;
};
static_assert(sizeof(WarpsimDeviceCall) == 40, "layout shared with the host (DeviceCallRecord)");

struct WarpsimTraceState {
  WarpsimDeviceCall* calls;
  unsigned long long* counts;
  unsigned long long traced_blocks;
  unsigned threads_per_block;
  unsigned capacity;
};
static_assert(sizeof(WarpsimTraceState) == 32, "layout shared with the host (DeviceTraceState)");

__device__ WarpsimTraceState warpsim_trace_state;

// Appends one call to the calling thread's slot. Only the thread itself touches its slot and
// counter, so no atomics; calls past `capacity` are counted, not stored.
static __device__ __forceinline__ void warpsim_trace_record(unsigned op, unsigned type, unsigned mask,
                                                            unsigned long long input,
                                                            unsigned long long output, int arg,
                                                            int width, unsigned line, bool pred) {
  const WarpsimTraceState state = warpsim_trace_state;
  const unsigned long long block =
      blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  if (state.calls == 0 || block >= state.traced_blocks) return;
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned long long slot = block * state.threads_per_block + thread;
  const unsigned long long n = state.counts[slot]++;
  if (n >= state.capacity) return;
  WarpsimDeviceCall call;
  call.input = input;
  call.output = output;
  call.arg = arg;
  call.width = width;
  call.mask = mask;
  call.line = line;
  call.op = (unsigned char)op;
  call.type = (unsigned char)type;
  call.pred = pred ? 1 : 0;
  call.reserved0 = 0;
  call.reserved1 = 0;
  state.calls[slot * state.capacity + n] = call;
}

// An operand's bytes in the low bytes of a zeroed 64-bit word, as the simulator's ValueBits.
template <class T>
static __device__ __forceinline__ unsigned long long warpsim_bits(T value) {
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <class T>
struct WarpsimTypeOf;
)cuda";

// Wrappers with CUDA's exact parameter lists behind a leading `line`.
constexpr const char* kWrapperMacros = R"cuda(
#define WARPSIM_TRACE_SHUFFLES(T)                                                                   \
  static __device__ __forceinline__ T warpsim_trace_shfl_sync(unsigned line, unsigned mask, T var,  \
                                                              int srcLane, int width = warpSize) { \
    const T result = __shfl_sync(mask, var, srcLane, width);                                       \
    warpsim_trace_record(WARPSIM_OP_shfl_sync, WarpsimTypeOf<T>::value, mask, warpsim_bits(var),   \
                         warpsim_bits(result), srcLane, width, line, false);                       \
    return result;                                                                                  \
  }                                                                                                 \
  static __device__ __forceinline__ T warpsim_trace_shfl_up_sync(                                   \
      unsigned line, unsigned mask, T var, unsigned int delta, int width = warpSize) {              \
    const T result = __shfl_up_sync(mask, var, delta, width);                                      \
    warpsim_trace_record(WARPSIM_OP_shfl_up_sync, WarpsimTypeOf<T>::value, mask, warpsim_bits(var),\
                         warpsim_bits(result), (int)delta, width, line, false);                    \
    return result;                                                                                  \
  }                                                                                                 \
  static __device__ __forceinline__ T warpsim_trace_shfl_down_sync(                                 \
      unsigned line, unsigned mask, T var, unsigned int delta, int width = warpSize) {              \
    const T result = __shfl_down_sync(mask, var, delta, width);                                    \
    warpsim_trace_record(WARPSIM_OP_shfl_down_sync, WarpsimTypeOf<T>::value, mask,                 \
                         warpsim_bits(var), warpsim_bits(result), (int)delta, width, line, false); \
    return result;                                                                                  \
  }                                                                                                 \
  static __device__ __forceinline__ T warpsim_trace_shfl_xor_sync(                                  \
      unsigned line, unsigned mask, T var, int laneMask, int width = warpSize) {                    \
    const T result = __shfl_xor_sync(mask, var, laneMask, width);                                  \
    warpsim_trace_record(WARPSIM_OP_shfl_xor_sync, WarpsimTypeOf<T>::value, mask,                  \
                         warpsim_bits(var), warpsim_bits(result), laneMask, width, line, false);   \
    return result;                                                                                  \
  }

#define WARPSIM_TRACE_MATCHES(T)                                                                    \
  static __device__ __forceinline__ unsigned warpsim_trace_match_any_sync(unsigned line,            \
                                                                          unsigned mask, T value) { \
    const unsigned result = __match_any_sync(mask, value);                                         \
    warpsim_trace_record(WARPSIM_OP_match_any_sync, WarpsimTypeOf<T>::value, mask,                 \
                         warpsim_bits(value), result, 0, 0, line, false);                          \
    return result;                                                                                  \
  }                                                                                                 \
  static __device__ __forceinline__ unsigned warpsim_trace_match_all_sync(                          \
      unsigned line, unsigned mask, T value, int* pred) {                                           \
    const unsigned result = __match_all_sync(mask, value, pred);                                   \
    warpsim_trace_record(WARPSIM_OP_match_all_sync, WarpsimTypeOf<T>::value, mask,                 \
                         warpsim_bits(value), result, 0, 0, line, *pred != 0);                     \
    return result;                                                                                  \
  }

#define WARPSIM_TRACE_VOTE(NAME, RESULT)                                                            \
  static __device__ __forceinline__ RESULT warpsim_trace_##NAME(unsigned line, unsigned mask,       \
                                                                int predicate) {                    \
    const RESULT result = __##NAME(mask, predicate);                                               \
    warpsim_trace_record(WARPSIM_OP_##NAME, WARPSIM_TYPE_none, mask, (unsigned)predicate,          \
                         (unsigned)result, 0, 0, line, false);                                     \
    return result;                                                                                  \
  }

#define WARPSIM_TRACE_REDUCE(NAME, T, TYPE)                                                         \
  static __device__ __forceinline__ T warpsim_trace_##NAME(unsigned line, unsigned mask, T value) { \
    const T result = __##NAME(mask, value);                                                        \
    warpsim_trace_record(WARPSIM_OP_##NAME, TYPE, mask, (unsigned)value, (unsigned)result, 0, 0,   \
                         line, false);                                                             \
    return result;                                                                                  \
  }

#define WARPSIM_TRACE_BARRIER(NAME)                                                                 \
  static __device__ __forceinline__ int warpsim_trace_##NAME(unsigned line, int predicate) {        \
    const int result = __##NAME(predicate);                                                        \
    warpsim_trace_record(WARPSIM_OP_##NAME, WARPSIM_TYPE_none, 0, predicate != 0 ? 1u : 0u,        \
                         (unsigned)result, 0, 0, line, false);                                     \
    return result;                                                                                  \
  }
)cuda";

constexpr const char* kFixedWrappers = R"cuda(
WARPSIM_TRACE_VOTE(ballot_sync, unsigned)
WARPSIM_TRACE_VOTE(any_sync, int)
WARPSIM_TRACE_VOTE(all_sync, int)
WARPSIM_TRACE_VOTE(uni_sync, int)

#if __CUDA_ARCH__ >= 800
WARPSIM_TRACE_REDUCE(reduce_add_sync, unsigned, WARPSIM_TYPE_u32)
WARPSIM_TRACE_REDUCE(reduce_add_sync, int, WARPSIM_TYPE_i32)
WARPSIM_TRACE_REDUCE(reduce_min_sync, unsigned, WARPSIM_TYPE_u32)
WARPSIM_TRACE_REDUCE(reduce_min_sync, int, WARPSIM_TYPE_i32)
WARPSIM_TRACE_REDUCE(reduce_max_sync, unsigned, WARPSIM_TYPE_u32)
WARPSIM_TRACE_REDUCE(reduce_max_sync, int, WARPSIM_TYPE_i32)
WARPSIM_TRACE_REDUCE(reduce_and_sync, unsigned, WARPSIM_TYPE_none)
WARPSIM_TRACE_REDUCE(reduce_or_sync, unsigned, WARPSIM_TYPE_none)
WARPSIM_TRACE_REDUCE(reduce_xor_sync, unsigned, WARPSIM_TYPE_none)
#endif

static __device__ __forceinline__ unsigned warpsim_trace_activemask(unsigned line) {
  const unsigned result = __activemask();
  warpsim_trace_record(WARPSIM_OP_activemask, WARPSIM_TYPE_none, 0, 0, result, 0, 0, line, false);
  return result;
}

// __syncwarp takes zero or one argument: `WarpsimSyncwarpAt{line}(...)` keeps CUDA's default mask
// without needing __VA_OPT__.
struct WarpsimSyncwarpAt {
  unsigned line;
  __device__ __forceinline__ void operator()(unsigned mask = 0xffffffffu) const {
    __syncwarp(mask);
    warpsim_trace_record(WARPSIM_OP_syncwarp, WARPSIM_TYPE_none, mask, 0, 0, 0, 0, line, false);
  }
};

static __device__ __forceinline__ void warpsim_trace_syncthreads(unsigned line) {
  __syncthreads();
  warpsim_trace_record(WARPSIM_OP_syncthreads, WARPSIM_TYPE_none, 0, 1, 0, 0, 0, line, false);
}
WARPSIM_TRACE_BARRIER(syncthreads_count)
WARPSIM_TRACE_BARRIER(syncthreads_and)
WARPSIM_TRACE_BARRIER(syncthreads_or)

// cooperative_groups' thread_block::sync() is a named barrier 0: a __syncthreads to the simulator.
static __device__ __forceinline__ void warpsim_trace_barrier_sync(unsigned line, unsigned id) {
  __barrier_sync(id);
  warpsim_trace_record(WARPSIM_OP_syncthreads, WARPSIM_TYPE_none, 0, 1, 0, 0, 0, line, false);
}

#undef WARPSIM_TRACE_SHUFFLES
#undef WARPSIM_TRACE_MATCHES
#undef WARPSIM_TRACE_VOTE
#undef WARPSIM_TRACE_REDUCE
#undef WARPSIM_TRACE_BARRIER
)cuda";

// The call-site macros, with LINE standing for the line argument.
std::string call_macros(const std::string& line, bool header_phase) {
  std::string out;
  const auto define = [&](std::string_view name, const std::string& body) {
    out += "#define ";
    out += name;
    out += body;
    out += '\n';
  };
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    const std::string_view name = intrinsic_for(op).name;
    const std::string wrapper = "warpsim_trace_" + std::string(name.substr(2));
    std::string body;
    if (op == Op::activemask) {
      body = "() " + wrapper + "(" + line + ")";
    } else if (op == Op::syncthreads) {
      body = "() " + wrapper + "(" + line + ")";
    } else if (op == Op::syncwarp) {
      body = "(...) WarpsimSyncwarpAt{" + line + "}(__VA_ARGS__)";
    } else {
      body = "(...) " + wrapper + "(" + line + ", __VA_ARGS__)";
    }
    const bool match = op == Op::match_any || op == Op::match_all;
    const bool reduce = op == Op::reduce_add || op == Op::reduce_min || op == Op::reduce_max ||
                        op == Op::reduce_and || op == Op::reduce_or || op == Op::reduce_xor;
    if (match || reduce) out += match ? "#if __CUDA_ARCH__ >= 700\n" : "#if __CUDA_ARCH__ >= 800\n";
    define(name, body);
    if (match || reduce) out += "#endif\n";
  }
  if (header_phase)
    define("__barrier_sync", "(...) warpsim_trace_barrier_sync(" + line + ", __VA_ARGS__)");
  return out;
}

std::string undefine_macros() {
  std::string out;
  for (int i = 0; i < kOpCount; ++i) {
    out += "#undef ";
    out += intrinsic_for(static_cast<Op>(i)).name;
    out += '\n';
  }
  out += "#undef __barrier_sync\n";
  return out;
}

}  // namespace

std::span<const TracedType> traced_operand_types() { return kTracedTypes; }

std::vector<std::string_view> traced_intrinsic_names() {
  std::vector<std::string_view> names;
  for (int i = 0; i < kOpCount; ++i) names.push_back(intrinsic_for(static_cast<Op>(i)).name);
  return names;
}

std::string line_directive_file(std::string_view path) {
  std::string out = "\"";
  for (const char c : path) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

std::string device_trace_prelude(bool cooperative_groups) {
  std::string out;
  out += "#line 1 ";
  out += line_directive_file(kPreludeFileName);
  out += "\n// warpsim device-side trace recorder (generated by gpu/device_trace_prelude.cpp)\n";
  // Headers that define intrinsic overloads of their own: before any macro.
  out += "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n";
  out += kRecorder;

  // Op and type codes, generated from the simulator's enums so the two cannot drift.
  out += "enum : unsigned {\n";
  for (int i = 0; i < kOpCount; ++i) {
    out += "  WARPSIM_OP_" + std::string(to_string(static_cast<Op>(i))) + " = " +
           std::to_string(i) + ",\n";
  }
  out += "};\nenum : unsigned {\n";
  for (int i = 0; i <= static_cast<int>(ValueType::bf16x2); ++i) {
    out += "  WARPSIM_TYPE_" + std::string(to_string(static_cast<ValueType>(i))) + " = " +
           std::to_string(i) + ",\n";
  }
  out += "};\n";
  for (const TracedType& t : kTracedTypes) {
    out += "template <> struct WarpsimTypeOf<" + std::string(t.cuda_name) +
           "> { static constexpr unsigned value = WARPSIM_TYPE_" + std::string(to_string(t.type)) +
           "; };\n";
  }

  out += kWrapperMacros;
  for (const TracedType& t : kTracedTypes)
    out += "WARPSIM_TRACE_SHUFFLES(" + std::string(t.cuda_name) + ")\n";
  out += "#if __CUDA_ARCH__ >= 700\n";
  for (std::size_t i = 0; i < kMatchTypes; ++i) {
    out += "WARPSIM_TRACE_MATCHES(" + std::string(kTracedTypes[i].cuda_name) + ")\n";
  }
  out += "#endif\n";
  out += kFixedWrappers;

  if (cooperative_groups) {
    // Cooperative groups call intrinsics inside CUDA's headers: recorded, with line 0 (unknown).
    out += call_macros("0u", true);
    out += "#include <cooperative_groups.h>\n";
    for (const char* header : {"cooperative_groups/reduce.h", "cooperative_groups/scan.h",
                               "cooperative_groups/memcpy_async.h"}) {
      out +=
          "#if __has_include(<" + std::string(header) + ">)\n#include <" + header + ">\n#endif\n";
    }
    out += undefine_macros();
  }
  // Everything after this: the call's own line.
  out += call_macros("__LINE__", false);
  return out;
}

std::string traced_source(std::string_view source, std::string_view path, bool cooperative_groups) {
  std::string out = device_trace_prelude(cooperative_groups);
  out += "#line 1 ";
  out += line_directive_file(path);
  out += '\n';
  out += source;
  if (!source.empty() && source.back() != '\n') out += '\n';
  return out;
}

bool uses_cooperative_groups(std::string_view source, std::string_view path,
                             std::span<const std::string> include_dirs) {
  namespace fs = std::filesystem;
  std::set<fs::path> seen;
  std::vector<std::pair<std::string, fs::path>> pending{
      {std::string(source), fs::path(path).parent_path()}};
  while (!pending.empty()) {
    auto [text, folder] = std::move(pending.back());
    pending.pop_back();
    if (text.find("cooperative_groups") != std::string::npos) return true;
    // Each `#include "name"`: beside the including file first, then the include folders.
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      const std::size_t hash = line.find_first_not_of(" \t");
      if (hash == std::string::npos || line[hash] != '#' ||
          line.find("include", hash) == std::string::npos)
        continue;
      const std::size_t open = line.find('"');
      const std::size_t close = open == std::string::npos ? open : line.find('"', open + 1);
      if (close == std::string::npos) continue;
      const std::string name = line.substr(open + 1, close - open - 1);
      std::vector<fs::path> candidates{folder / name};
      for (const std::string& dir : include_dirs) candidates.emplace_back(fs::path(dir) / name);
      for (const fs::path& candidate : candidates) {
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(candidate, ec);
        if (ec || !fs::is_regular_file(canonical, ec) || !seen.insert(canonical).second) continue;
        std::ifstream in(canonical, std::ios::binary);
        std::ostringstream header;
        header << in.rdbuf();
        pending.emplace_back(header.str(), canonical.parent_path());
        break;
      }
    }
  }
  return false;
}

}  // namespace warpsim::gpu
