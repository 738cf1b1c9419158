#include "vectors_record.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <map>
#include <optional>
#include <system_error>
#include <utility>

#include "nvrtc_compile.hpp"
#include "warpsim/intrinsic_signature.hpp"

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

// Raw bits <-> operand type, bit-exact (NaN payloads and -0 survive): the value's bytes in the low
// bytes of a zeroed 64-bit word.
template <class T>
__device__ __forceinline__ T warpsim_from_bits(unsigned long long bits) {
  T value;
  memcpy(&value, &bits, sizeof(T));
  return value;
}
template <class T>
__device__ __forceinline__ unsigned long long warpsim_bits(T value) {
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof(T));
  return bits;
}

// Runs `call(mask, operand bits, arg, width, &pred)` as the case's lane, which returns the raw
// result bits.
template <class Call>
__device__ __forceinline__ void warpsim_run_case(const WarpsimCase& c, WarpsimResult& r, Call call) {
  const unsigned lane = threadIdx.x;
  if (((c.lanes >> lane) & 1u) == 0u) return;  // exits before the call
  int pred = 0;
  const unsigned long long bits = call(c.mask, c.value[lane], c.arg[lane], c.width, &pred);
  r.bits[lane] = bits;
  r.pred[lane] = (unsigned)pred;
  r.ran[lane] = 1u;
}
)cuda";

// The overload of op's intrinsic whose operand records `type` (the first, so the canonical C++
// spelling), or none when the intrinsic has no such overload.
std::optional<CudaOverload> vector_overload(Op op, ValueType type) {
  for (CudaOverload& o : cuda_overloads(intrinsic_for(op)))
    if (o.operand.type == type) return std::move(o);
  return std::nullopt;
}

bool in_format(Op op, ValueType type) {
  const auto types = vector_types(op);
  return intrinsic_for(op).vectors == VectorCoverage::recorded &&
         std::find(types.begin(), types.end(), type) != types.end();
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
    if (intrinsic_for(c.op).pred_out && r.pred[i] != 0) c.expect_pred |= lane_bit(lane);
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
    if (intrinsic_for(c.op).pred_out && has_lane(c.lanes, lane)) v.expect_pred[i] = has_lane(c.expect_pred, lane);
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
  const std::optional<CudaOverload> o = vector_overload(op, type);
  assert(o && "a pair of the vector format");
  std::string source = "// warpsim test-vector kernel for " + pair_name(op, type) + " (generated by gpu/vectors_record.cpp)\n";
  source += kKernelPrelude;
  source += "\nextern \"C\" __global__ void __launch_bounds__(32) ";
  source += kVectorKernelName;
  source += "(const WarpsimCase* cases, WarpsimResult* results) {\n"
            "  warpsim_run_case(cases[blockIdx.x], results[blockIdx.x],\n"
            "                   [](unsigned mask, unsigned long long bits, int arg, int width, int* pred) {\n"
            "    (void)mask; (void)bits; (void)arg; (void)width; (void)pred;\n";
  // The case's fields under the intrinsic's own parameter names; mask, width and pred already are.
  for (const CudaParameter& p : o->parameters) {
    if (p.role == ParameterRole::operand) {
      source += "    const " + p.type + " " + p.name + " = warpsim_from_bits<" + p.type + ">(bits);\n";
    } else if (p.role == ParameterRole::argument) {
      source += "    const " + p.type + " " + p.name + " = (" + p.type + ")arg;\n";
    }
  }
  source += "    return warpsim_bits(" + o->call() + ");\n  });\n}\n";
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
