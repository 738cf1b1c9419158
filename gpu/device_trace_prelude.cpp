#include "device_trace_prelude.hpp"

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "warpsim/intrinsic_signature.hpp"

namespace warpsim::gpu {
namespace {

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

)cuda";

// Named barriers, written here rather than generated: CUDA spells the row's op as two functions.
// __barrier_sync(0) is a __syncthreads to the simulator (its shim, and cooperative_groups'
// thread_block::sync(), call it so), any other id a barrier_sync step with the id as argument;
// __barrier_sync_count is always a barrier_sync step, its count as width.
constexpr const char* kNamedBarrierWrappers = R"cuda(struct warpsim_trace_barrier_sync {
  unsigned line;
  __device__ __forceinline__ void operator()(unsigned int id) const {
    __barrier_sync(id);
    warpsim_trace_record(id == 0 ? WARPSIM_OP_syncthreads : WARPSIM_OP_barrier_sync,
                         WARPSIM_TYPE_none, 0, 1, 0, id == 0 ? 0 : (int)id, 0, line, false);
  }
};
struct warpsim_trace_barrier_sync_count {
  unsigned line;
  __device__ __forceinline__ void operator()(unsigned int id, unsigned int count) const {
    __barrier_sync_count(id, count);
    warpsim_trace_record(WARPSIM_OP_barrier_sync, WARPSIM_TYPE_none, 0, 1, 0, (int)id, (int)count,
                         line, false);
  }
};
)cuda";

const CudaParameter* parameter(const CudaOverload& o, ParameterRole role) {
  for (const CudaParameter& p : o.parameters)
    if (p.role == role) return &p;
  return nullptr;
}

// What a call with `o` appends, in the simulator's terms: the operand's bits (a vote's raw
// predicate; a block barrier's thread counts 0 or 1, __syncthreads as 1, as the runtime records
// them), the result's bits, and the argument, width and *pred where the call has them.
std::string record_statement(const CudaOverload& o) {
  const IntrinsicInfo& info = *o.intrinsic;
  const bool barrier = info.family == IntrinsicFamily::block_barrier;
  const CudaParameter* operand = parameter(o, ParameterRole::operand);
  const CudaParameter* argument = parameter(o, ParameterRole::argument);
  std::string input = barrier ? "1" : "0";
  if (operand && barrier) input = operand->name + " != 0 ? 1u : 0u";
  if (operand && !barrier) input = "warpsim_bits(" + operand->name + ")";
  const std::array<std::string, 9> fields = {
      "WARPSIM_OP_" + std::string(to_string(*info.op)),
      "WARPSIM_TYPE_" + std::string(to_string(o.operand.type)),
      parameter(o, ParameterRole::mask) ? "mask" : "0",
      input,
      info.result == ResultKind::none ? "0" : "warpsim_bits(result)",
      argument ? "(int)" + argument->name : "0",
      parameter(o, ParameterRole::width) ? "width" : "0",
      "line",
      parameter(o, ParameterRole::pred) ? "*pred != 0" : "false",
  };
  std::string out = "warpsim_trace_record(" + fields[0];
  for (std::size_t i = 1; i < fields.size(); ++i) out += ", " + fields[i];
  return out + ");";
}

// `#if __CUDA_ARCH__ >= ...` around what an intrinsic newer than the oldest target needs.
std::string arch_guard_open(const IntrinsicInfo& info) {
  return info.min_sm > kOldestSm ? "#if __CUDA_ARCH__ >= " + std::to_string(info.min_sm * 10) + "\n"
                                 : "";
}
std::string arch_guard_close(const IntrinsicInfo& info) {
  return info.min_sm > kOldestSm ? "#endif\n" : "";
}

// A callable struct per intrinsic: `warpsim_trace_NAME{line}(args...)` takes CUDA's exact
// parameter lists (so overload resolution picks the operand type CUDA would, and defaults such as
// __syncwarp's mask still apply), calls the real intrinsic and records the call.
std::string wrapper(const IntrinsicInfo& info) {
  if (info.op == Op::barrier_sync) return kNamedBarrierWrappers;
  std::string out = arch_guard_open(info);
  out += "struct warpsim_trace_" + std::string(to_string(*info.op)) + " {\n  unsigned line;\n";
  for (const CudaOverload& o : cuda_overloads(info)) {
    const bool returns = o.result_type != "void";
    out += "  __device__ __forceinline__ " + o.declaration("operator()") + " const {\n    ";
    if (returns) out += "const " + o.result_type + " result = ";
    out += o.call() + ";\n    " + record_statement(o) + "\n";
    if (returns) out += "    return result;\n";
    out += "  }\n";
  }
  return out + "};\n" + arch_guard_close(info);
}

// The call-site macros, with LINE standing for the line argument (0u inside CUDA's headers).
std::string call_macros(const std::string& line) {
  std::string out;
  for (int i = 0; i < kOpCount; ++i) {
    const IntrinsicInfo& info = intrinsic_for(static_cast<Op>(i));
    out += arch_guard_open(info) + "#define " + std::string(info.name) + "(...) warpsim_trace_" +
           std::string(to_string(*info.op)) + "{" + line + "}(__VA_ARGS__)\n" +
           arch_guard_close(info);
  }
  out += "#define __barrier_sync_count(...) warpsim_trace_barrier_sync_count{" + line +
         "}(__VA_ARGS__)\n";
  return out;
}

std::string undefine_macros() {
  std::string out;
  for (int i = 0; i < kOpCount; ++i) {
    out += "#undef ";
    out += intrinsic_for(static_cast<Op>(i)).name;
    out += '\n';
  }
  out += "#undef __barrier_sync_count\n";
  return out;
}

}  // namespace

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
  for (int i = 0; i < kValueTypeCount; ++i) {
    out += "  WARPSIM_TYPE_" + std::string(to_string(static_cast<ValueType>(i))) + " = " +
           std::to_string(i) + ",\n";
  }
  out += "};\n";
  for (int i = 0; i < kOpCount; ++i) out += wrapper(intrinsic_for(static_cast<Op>(i)));

  if (cooperative_groups) {
    // Cooperative groups call intrinsics inside CUDA's headers: recorded, with line 0 (unknown).
    out += call_macros("0u");
    out += "#include <cooperative_groups.h>\n";
    for (const char* header : {"cooperative_groups/reduce.h", "cooperative_groups/scan.h",
                               "cooperative_groups/memcpy_async.h"}) {
      out +=
          "#if __has_include(<" + std::string(header) + ">)\n#include <" + header + ">\n#endif\n";
    }
    out += undefine_macros();
  }
  // Everything after this: the call's own line.
  out += call_macros("__LINE__");
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
