#include "vectors_record.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <system_error>
#include <utility>

#include "nvrtc_compile.hpp"

namespace warpsim::gpu {
namespace {

// Host mirrors of the device structs in kKernelPrelude; the static_asserts on both sides pin the
// layout (no padding: 8-byte fields first).
struct DeviceCase {
  std::array<std::uint64_t, kWarpSize> value;
  std::array<std::int32_t, kWarpSize> arg;
  std::uint32_t mask;
  std::uint32_t lanes;
  std::int32_t width;
  std::uint32_t reserved;
};
static_assert(sizeof(DeviceCase) == 400);

struct DeviceResult {
  std::array<std::uint64_t, kWarpSize> bits;  // raw result bits, zero-extended
  std::array<std::uint32_t, kWarpSize> pred;  // match_all: *pred
  std::array<std::uint32_t, kWarpSize> ran;   // 1 where the lane made the call
};
static_assert(sizeof(DeviceResult) == 512);

constexpr const char* kKernelPrelude = R"cuda(
// One block of 32 threads per case. Lanes outside `lanes` return before the call (they have
// exited); every other lane calls the intrinsic once and stores the raw result bits.
struct WarpsimCase {
  unsigned long long value[32];  // raw operand bits (predicate for votes)
  int arg[32];                   // shuffles: srcLane / delta / laneMask
  unsigned mask;
  unsigned lanes;
  int width;
  unsigned reserved;
};
struct WarpsimResult {
  unsigned long long bits[32];
  unsigned pred[32];
  unsigned ran[32];
};
static_assert(sizeof(WarpsimCase) == 400, "layout shared with the host");
static_assert(sizeof(WarpsimResult) == 512, "layout shared with the host");

// Raw bits <-> operand type, bit-exact (NaN payloads and -0 survive).
template <class T> struct WarpsimBits;
template <> struct WarpsimBits<int> {
  static __device__ int from(unsigned long long b) { return (int)(unsigned)b; }
  static __device__ unsigned long long to(int v) { return (unsigned)v; }
};
template <> struct WarpsimBits<unsigned> {
  static __device__ unsigned from(unsigned long long b) { return (unsigned)b; }
  static __device__ unsigned long long to(unsigned v) { return v; }
};
template <> struct WarpsimBits<float> {
  static __device__ float from(unsigned long long b) { return __uint_as_float((unsigned)b); }
  static __device__ unsigned long long to(float v) { return __float_as_uint(v); }
};
template <> struct WarpsimBits<long long> {
  static __device__ long long from(unsigned long long b) { return (long long)b; }
  static __device__ unsigned long long to(long long v) { return (unsigned long long)v; }
};
template <> struct WarpsimBits<unsigned long long> {
  static __device__ unsigned long long from(unsigned long long b) { return b; }
  static __device__ unsigned long long to(unsigned long long v) { return v; }
};
template <> struct WarpsimBits<double> {
  static __device__ double from(unsigned long long b) { return __longlong_as_double((long long)b); }
  static __device__ unsigned long long to(double v) { return (unsigned long long)__double_as_longlong(v); }
};

#define WARPSIM_OP(NAME, ...)                                                                       \
  struct NAME {                                                                                     \
    template <class T>                                                                              \
    static __device__ unsigned long long call(unsigned mask, T v, int arg, int width, unsigned* p) { \
      (void)arg; (void)width; (void)p;                                                              \
      __VA_ARGS__                                                                                   \
    }                                                                                               \
  };
WARPSIM_OP(WarpsimShflIdx, return WarpsimBits<T>::to(__shfl_sync(mask, v, arg, width));)
WARPSIM_OP(WarpsimShflUp, return WarpsimBits<T>::to(__shfl_up_sync(mask, v, (unsigned)arg, width));)
WARPSIM_OP(WarpsimShflDown, return WarpsimBits<T>::to(__shfl_down_sync(mask, v, (unsigned)arg, width));)
WARPSIM_OP(WarpsimShflXor, return WarpsimBits<T>::to(__shfl_xor_sync(mask, v, arg, width));)
WARPSIM_OP(WarpsimBallot, return (unsigned)__ballot_sync(mask, (int)v);)
WARPSIM_OP(WarpsimAny, return (unsigned)__any_sync(mask, (int)v);)
WARPSIM_OP(WarpsimAll, return (unsigned)__all_sync(mask, (int)v);)
WARPSIM_OP(WarpsimMatchAny, return (unsigned)__match_any_sync(mask, v);)
WARPSIM_OP(WarpsimMatchAll, int pred = 0; unsigned r = __match_all_sync(mask, v, &pred); *p = (unsigned)pred; return r;)
WARPSIM_OP(WarpsimReduceAdd, return WarpsimBits<T>::to(__reduce_add_sync(mask, v));)
WARPSIM_OP(WarpsimReduceMin, return WarpsimBits<T>::to(__reduce_min_sync(mask, v));)
WARPSIM_OP(WarpsimReduceMax, return WarpsimBits<T>::to(__reduce_max_sync(mask, v));)
WARPSIM_OP(WarpsimReduceAnd, return (unsigned)__reduce_and_sync(mask, v);)
WARPSIM_OP(WarpsimReduceOr, return (unsigned)__reduce_or_sync(mask, v);)
WARPSIM_OP(WarpsimReduceXor, return (unsigned)__reduce_xor_sync(mask, v);)
WARPSIM_OP(WarpsimActivemask, (void)mask; (void)v; return (unsigned)__activemask();)
#undef WARPSIM_OP

template <class Op, class T>
__device__ __forceinline__ void warpsim_run_case(const WarpsimCase& c, WarpsimResult& r) {
  const unsigned lane = threadIdx.x;
  if (((c.lanes >> lane) & 1u) == 0u) return;  // exits before the call
  unsigned pred = 0;
  const unsigned long long bits = Op::template call<T>(c.mask, WarpsimBits<T>::from(c.value[lane]), c.arg[lane],
                                                       c.width, &pred);
  r.bits[lane] = bits;
  r.pred[lane] = pred;
  r.ran[lane] = 1u;
}
)cuda";

const char* op_functor(Op op) {
  switch (op) {
    case Op::shfl_idx: return "WarpsimShflIdx";
    case Op::shfl_up: return "WarpsimShflUp";
    case Op::shfl_down: return "WarpsimShflDown";
    case Op::shfl_xor: return "WarpsimShflXor";
    case Op::ballot: return "WarpsimBallot";
    case Op::any: return "WarpsimAny";
    case Op::all: return "WarpsimAll";
    case Op::match_any: return "WarpsimMatchAny";
    case Op::match_all: return "WarpsimMatchAll";
    case Op::reduce_add: return "WarpsimReduceAdd";
    case Op::reduce_min: return "WarpsimReduceMin";
    case Op::reduce_max: return "WarpsimReduceMax";
    case Op::reduce_and: return "WarpsimReduceAnd";
    case Op::reduce_or: return "WarpsimReduceOr";
    case Op::reduce_xor: return "WarpsimReduceXor";
    case Op::activemask: return "WarpsimActivemask";
    default: return nullptr;  // not in the vector format
  }
}

// CUDA operand type; votes, and/or/xor reductions and activemask carry unsigned words.
const char* cuda_type(ValueType type) {
  switch (type) {
    case ValueType::i32: return "int";
    case ValueType::f32: return "float";
    case ValueType::i64: return "long long";
    case ValueType::u64: return "unsigned long long";
    case ValueType::f64: return "double";
    default: return "unsigned";
  }
}

bool in_format(Op op, ValueType type) {
  const auto types = vector_types(op);
  return op_functor(op) != nullptr && std::find(types.begin(), types.end(), type) != types.end();
}

std::string pair_name(Op op, ValueType type) {
  std::string name(to_string(op));
  if (type != ValueType::none) {
    name += ' ';
    name += to_string(type);
  }
  return name;
}

Error internal_error(const std::string& message) { return Error{ErrorKind::internal, message, {}}; }

std::uint64_t result_mask(const VectorCase& c) {
  return result_bits(c.op, c.type) == 64 ? ~0ull : 0xffffffffull;
}

// Checks one case's device result and copies it into the case.
Expected<void> take_result(VectorCase& c, const DeviceResult& r, std::size_t case_index, RunStats& stats) {
  const LaneMask undefined = undefined_result_lanes(c);
  c.expect = {};
  c.expect_pred = 0;
  c.expect_defined = c.lanes & ~undefined;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const auto i = static_cast<std::size_t>(lane);
    const bool calls = has_lane(c.lanes, lane);
    if (r.ran[i] != (calls ? 1u : 0u)) {
      return internal_error("GPU run of case " + std::to_string(case_index) + " (" + pair_name(c.op, c.type) +
                            "): lane " + std::to_string(lane) + (calls ? " never made its call" : " ran after exiting"));
    }
    if (!calls) continue;
    const std::uint64_t bits = r.bits[i] & result_mask(c);
    if (has_lane(undefined, lane)) {
      ++stats.undefined_results;
      if (bits != 0) ++stats.undefined_nonzero;
      continue;
    }
    c.expect[i] = bits;
    ++stats.lane_results;
    if (c.op == Op::match_all && r.pred[i] != 0) c.expect_pred |= lane_bit(lane);
    if (is_shuffle(c.op)) {
      const int source = shuffle_source_lane(c.op, lane, c.arg[i], c.width);
      if (c.value[static_cast<std::size_t>(source)] != bits) ++stats.shuffle_formula_mismatches;
    }
  }
  return {};
}

DeviceCase to_device(const VectorCase& c) {
  DeviceCase d{};
  d.value = c.value;
  d.arg = c.arg;
  d.mask = c.mask;
  d.lanes = c.lanes;
  d.width = c.width;
  return d;
}

// Runs the cases `indices` of one (op, type) pair, in batches, through `buffers`.
Expected<void> run_pair(Gpu& gpu, const Kernel& kernel, std::span<VectorCase> cases,
                        const std::vector<std::size_t>& indices, DeviceBuffer& in, DeviceBuffer& out,
                        std::size_t per_launch, const RunOptions& options, RunStats& stats) {
  std::vector<DeviceCase> host_in;
  std::vector<DeviceResult> host_out;
  for (std::size_t first = 0; first < indices.size(); first += per_launch) {
    const std::size_t count = std::min(per_launch, indices.size() - first);
    host_in.clear();
    for (std::size_t k = 0; k < count; ++k) host_in.push_back(to_device(cases[indices[first + k]]));
    host_out.assign(count, DeviceResult{});

    if (auto r = in.upload(std::as_bytes(std::span(host_in))); !r) return r;
    if (auto r = out.upload(std::as_bytes(std::span(host_out))); !r) return r;  // zeroes `ran`
    DevicePtr in_address = in.address();
    DevicePtr out_address = out.address();
    std::array<void*, 2> args = {&in_address, &out_address};
    LaunchShape shape;
    shape.grid_x = static_cast<unsigned>(count);
    shape.block_x = static_cast<unsigned>(kWarpSize);
    if (auto r = gpu.launch(kernel, shape, args); !r) return r;
    if (auto r = gpu.synchronize(options.launch_timeout); !r) return r;
    ++stats.launches;
    if (auto r = out.download(std::as_writable_bytes(std::span(host_out))); !r) return r;

    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t index = indices[first + k];
      if (auto r = take_result(cases[index], host_out[k], index, stats); !r) return r;
    }
  }
  return {};
}

Error file_error(const std::filesystem::path& path, const std::string& what) {
  return Error{ErrorKind::file, "cannot write " + path.string() + ": " + what, {}};
}

}  // namespace

::warpsim::VectorCase to_vector_case(const VectorCase& c) {
  ::warpsim::VectorCase v;
  v.op = c.op;
  v.type = c.type;
  v.mask = c.mask;
  v.lanes = c.lanes;
  v.width = c.width;
  v.value = c.value;
  v.arg = c.arg;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const auto i = static_cast<std::size_t>(lane);
    if (has_lane(c.expect_defined, lane)) v.expect[i] = c.expect[i];
    if (c.op == Op::match_all && has_lane(c.lanes, lane)) v.expect_pred[i] = has_lane(c.expect_pred, lane);
  }
  return v;
}

Expected<void> write_recorded_vectors(const std::filesystem::path& path, const ::warpsim::VectorHeader& header,
                                      std::span<const VectorCase> cases) {
  if (path.empty() || !path.has_filename()) {
    return Error{ErrorKind::bad_input, "no output path given for the vector file", {}};
  }
  if (header.cases != cases.size()) {
    return Error{ErrorKind::bad_input,
                    "vector header says " + std::to_string(header.cases) + " cases but " +
                        std::to_string(cases.size()) + " are given",
                    {}};
  }
  std::error_code ec;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return file_error(path, "cannot create its folder: " + ec.message());
  }
  // Same folder (rename stays atomic), same ending (".gz" decides compression).
  const std::filesystem::path partial = path.parent_path() / (".partial-" + path.filename().string());
  ::warpsim::VectorFileWriter writer;
  Expected<void> written = writer.open(partial.string());
  if (written) written = writer.write(header);
  for (std::size_t i = 0; written && i < cases.size(); ++i) written = writer.write(to_vector_case(cases[i]));
  const Expected<void> closed = writer.close();
  if (written && !closed) written = closed;
  if (!written) {
    std::filesystem::remove(partial, ec);
    return written.error();
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(partial, ec);
    return file_error(path, "cannot move the finished file into place: " + why);
  }
  return {};
}

std::string vector_kernel_file_name(Op op, ValueType type) {
  std::string name = "warpsim_vectors_";
  name += to_string(op);
  if (type != ValueType::none) {
    name += '_';
    name += to_string(type);
  }
  return name + ".cu";
}

std::string vector_kernel_source(Op op, ValueType type) {
  std::string source = "// warpsim test-vector kernel for " + pair_name(op, type) + " (generated by gpu/vectors_record.cpp)\n";
  source += kKernelPrelude;
  source += "\nextern \"C\" __global__ void __launch_bounds__(32) ";
  source += kVectorKernelName;
  source += "(const WarpsimCase* cases, WarpsimResult* results) {\n  warpsim_run_case<";
  source += op_functor(op);
  source += ", ";
  source += cuda_type(type);
  source += ">(cases[blockIdx.x], results[blockIdx.x]);\n}\n";
  return source;
}

Expected<RunStats> run_cases(Gpu& gpu, std::span<VectorCase> cases, const RunOptions& options) {
  RunStats stats;
  if (options.cases_per_launch == 0) {
    return Error{ErrorKind::bad_input, "cases_per_launch must be at least 1", {}};
  }
  // Group by (op, type) in the format's order, keeping each group's case order.
  std::map<std::pair<int, int>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const VectorCase& c = cases[i];
    if (!in_format(c.op, c.type)) {
      return Error{ErrorKind::bad_input,
                      "case " + std::to_string(i) + " has " + pair_name(c.op, c.type) + ", which the vector format lacks",
                      {}};
    }
    if ((c.mask & c.lanes) != c.lanes || c.lanes == 0) {
      return Error{ErrorKind::bad_input,
                      "case " + std::to_string(i) + " is not a legal call: its mask must contain its (non-empty) lanes",
                      {}};
    }
    groups[{static_cast<int>(c.op), static_cast<int>(c.type)}].push_back(i);
  }
  if (groups.empty()) return stats;

  std::size_t largest = 0;
  for (const auto& [key, indices] : groups) largest = std::max(largest, indices.size());
  const std::size_t per_launch = std::min(options.cases_per_launch, largest);
  auto in = gpu.allocate(per_launch * sizeof(DeviceCase));
  if (!in) return in.error();
  auto out = gpu.allocate(per_launch * sizeof(DeviceResult));
  if (!out) return out.error();

  const int sm = gpu.device().sm;
  for (const auto& [key, indices] : groups) {
    const auto op = static_cast<Op>(key.first);
    const auto type = static_cast<ValueType>(key.second);
    if (min_sm(op) > sm) {
      return Error{ErrorKind::bad_input,
                      pair_name(op, type) + " needs sm_" + std::to_string(min_sm(op)) + " or newer; " +
                          gpu.device().name + " is sm_" + std::to_string(sm),
                      {}};
    }
    CompileOptions compile;
    compile.sm = sm;
    auto program = nvrtc_compile(vector_kernel_source(op, type), vector_kernel_file_name(op, type), compile);
    if (!program) return program.error();
    auto module = gpu.load_module(program->cubin);
    if (!module) return module.error();
    auto kernel = module->kernel(kVectorKernelName);
    if (!kernel) return kernel.error();
    ++stats.kernels;
    const std::size_t launches_before = stats.launches;
    if (auto r = run_pair(gpu, *kernel, cases, indices, *in, *out, per_launch, options, stats); !r) {
      Error error = r.error();
      error.message = pair_name(op, type) + ": " + error.message;
      return error;
    }
    if (options.progress) {
      options.progress(pair_name(op, type) + ": " + std::to_string(indices.size()) + " cases, " +
                       std::to_string(stats.launches - launches_before) + " launch(es)");
    }
  }
  return stats;
}

Expected<RecordSummary> record_vectors(const RecordOptions& options) {
  if (options.out.empty()) {
    return Error{ErrorKind::bad_input, "no output path given for the vector file", {}};
  }
  if (options.cases == 0) return Error{ErrorKind::bad_input, "asked to record 0 cases", {}};

  auto gpu = Gpu::open(options.device);
  if (!gpu) return gpu.error();
  const DeviceInfo& device = gpu->device();

  RecordSummary summary;
  summary.out = options.out;
  for (const Op op : vector_ops()) {
    if (min_sm(op) > device.sm) summary.skipped_ops.push_back(op);
  }
  GeneratorOptions generator;
  generator.seed = options.seed;
  generator.cases = options.cases;
  generator.sm = device.sm;
  std::vector<VectorCase> cases = generate_cases(generator);
  if (cases.empty()) {
    return Error{ErrorKind::bad_input, device.name + " (sm_" + std::to_string(device.sm) +
                                                        ") has none of the format's operations", {}};
  }

  auto stats = run_cases(*gpu, cases, options.run);
  if (!stats) return stats.error();
  summary.stats = *stats;

  summary.header.device = device.name;
  summary.header.sm = device.sm;
  summary.header.driver = device.driver_version;
  summary.header.runtime = nvrtc_version();
  summary.header.seed = options.seed;
  summary.header.cases = cases.size();
  if (auto written = write_recorded_vectors(options.out, summary.header, cases); !written) return written.error();
  return summary;
}

}  // namespace warpsim::gpu
