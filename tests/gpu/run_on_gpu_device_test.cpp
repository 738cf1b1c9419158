// `run --gpu` end to end on a CUDA device (ctest label "gpu"): the kernels of
// kernels/run_on_gpu_kernels.cuh run in the simulator and, through run_on_gpu, on the GPU; buffers
// and every traced lane's calls must agree. Without a device each case prints
// "skipped: no CUDA device (...)" and passes.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_report.hpp"
#include "kernel_launch.hpp"
#include "kernels/run_on_gpu_kernels.hpp"
#include "device_or_skip.hpp"
#include "warpsim/launch.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

namespace {

using warpsim::gpu::test::device_or_skip;

const std::string kKernelFile =
    std::string(WARPSIM_SOURCE_DIR) + "/tests/gpu/kernels/run_on_gpu_kernels.cuh";

std::string kernel_file_text() {
  std::ifstream in(kKernelFile, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One buffer argument: its initial contents (kept for the GPU) and the simulator's copy.
struct Buffer {
  runner::ArgSpec spec;
  std::vector<std::byte> initial;
  std::vector<std::byte> sim;
  template <class T>
  Buffer(const char* type, const std::vector<T>& values) {
    auto parsed =
        runner::parse_arg_spec(std::string(type) + "[" + std::to_string(values.size()) + "]:zeros");
    REQUIRE_MESSAGE(parsed, parsed.error().message);
    spec = *parsed;
    initial.resize(values.size() * sizeof(T));
    std::memcpy(initial.data(), values.data(), initial.size());
    sim = initial;
  }
  template <class T>
  T* as() {
    return reinterpret_cast<T*>(sim.data());
  }
};

struct Outcome {
  LaunchResult sim;
  std::optional<GpuRun> gpu;
  GpuComparison comparison;
};

// Runs `kernel` (--kernel spelling) in the simulator through `body` and on the GPU, traced.
Outcome run_both(const std::string& kernel, Dim3 grid, Dim3 block, std::vector<Buffer>& buffers,
                 const std::function<void()>& body, std::uint32_t capacity = 256) {
  Outcome out;
  LaunchOptions options;
  options.grid = grid;
  options.block = block;
  out.sim = launch(options, body);
  REQUIRE_MESSAGE(out.sim.status == LaunchStatus::completed, out.sim.message);

  const std::string source = kernel_file_text();
  const auto choice = runner::resolve_kernel(runner::scan_kernels(source), kernel, kKernelFile);
  REQUIRE_MESSAGE(choice, choice.error().message);
  GpuRunRequest request;
  request.source = source;
  request.path = kKernelFile;
  request.kernel_expression = choice->expression;
  request.kernel_name = choice->name;
  for (Buffer& b : buffers) {
    request.args.push_back(b.spec);
    request.initial.push_back(b.initial);
  }
  request.grid = grid;
  request.block = block;
  request.trace.enabled = true;
  request.trace.capacity = capacity;
  auto run = run_on_gpu(request);
  REQUIRE_MESSAGE(run, (run ? "" : to_string(run.error())));
  CHECK_MESSAGE(run->trace_note.empty(), run->trace_note);
  REQUIRE(run->trace);
  std::vector<BufferData> sim_buffers;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    sim_buffers.push_back(BufferData{i, value_type_of(buffers[i].spec.type), buffers[i].sim});
  }
  out.comparison = compare_run(*run, &out.sim.trace, sim_buffers);
  out.gpu = std::move(*run);
  MESSAGE(cli::format_gpu_comparison_text(out.comparison));
  return out;
}

void check_identical(const Outcome& o) {
  for (const BufferComparison& b : o.comparison.buffers) {
    CAPTURE(b.arg);
    CHECK(b.identical());
  }
  REQUIRE(o.comparison.steps);
  CHECK(o.comparison.steps->identical());
  CHECK(o.comparison.steps->calls > 0);
}

}  // namespace

TEST_CASE("run_on_gpu: a butterfly sum, buffers and every lane's five shuffles as simulated") {
  if (!device_or_skip()) return;
  std::vector<float> in(128);
  std::iota(in.begin(), in.end(), -40.0f);
  std::vector<Buffer> buffers = {Buffer("f32", in), Buffer("f32", std::vector<float>(128))};
  const Outcome o = run_both("gk_butterfly", {4, 1, 1}, {32, 1, 1}, buffers,
                             [&] { gk_butterfly(buffers[0].as<float>(), buffers[1].as<float>()); });
  check_identical(o);
  CHECK(o.gpu->trace->traced_blocks == 4);
  CHECK(o.comparison.steps->lanes == 128);
  CHECK(o.comparison.steps->calls == 128 * 5);
  CHECK(o.comparison.steps->unknown_lines == 0);
  CHECK_FALSE(o.gpu->trace->device.empty());
  CHECK(o.gpu->trace->date.size() == 20);
}

TEST_CASE("run_on_gpu: votes and all four block barriers across two warps") {
  if (!device_or_skip()) return;
  std::vector<int> in(192);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 7) - 1;
  std::vector<Buffer> buffers = {Buffer("i32", in), Buffer("i32", std::vector<int>(192))};
  const Outcome o = run_both("gk_ballot_barrier", {3, 1, 1}, {64, 1, 1}, buffers, [&] {
    gk_ballot_barrier(buffers[0].as<int>(), buffers[1].as<int>());
  });
  check_identical(o);
}

TEST_CASE(
    "run_on_gpu: cooperative-groups tiles, reduce and block.sync, recorded inside CUDA's headers") {
  if (!device_or_skip()) return;
  std::vector<int> in(64);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 37 % 11) - 3;
  for (const auto& [name, tile] :
       {std::pair{"tiles::reduce<16>", 16}, std::pair{"tiles::reduce<8>", 8}}) {
    CAPTURE(name);
    std::vector<Buffer> buffers = {Buffer("i32", in), Buffer("i32", std::vector<int>(64)),
                                   Buffer("f32", std::vector<float>(64))};
    const Outcome o = run_both(name, {1, 1, 1}, {64, 1, 1}, buffers, [&, size = tile] {
      if (size == 16)
        tiles::reduce<16>(buffers[0].as<int>(), buffers[1].as<int>(), buffers[2].as<float>());
      else
        tiles::reduce<8>(buffers[0].as<int>(), buffers[1].as<int>(), buffers[2].as<float>());
    });
    check_identical(o);
    CHECK(o.comparison.steps->unknown_lines >
          0);  // the collectives run inside cooperative_groups.h
  }
}

TEST_CASE("run_on_gpu: __half, __half2 and __nv_bfloat16 shuffles") {
  if (!device_or_skip()) return;
  std::vector<float> in(64);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = 0.25f * static_cast<float>(i) - 3.0f;
  std::vector<Buffer> buffers = {Buffer("f32", in), Buffer("f32", std::vector<float>(64))};
  const Outcome o = run_both("gk_halves", {2, 1, 1}, {32, 1, 1}, buffers,
                             [&] { gk_halves(buffers[0].as<float>(), buffers[1].as<float>()); });
  check_identical(o);
}

TEST_CASE("run_on_gpu: match, reduce, activemask; 64-bit shuffles with widths") {
  if (!device_or_skip()) return;
  std::vector<int> keys(64);
  std::vector<long long> wide(64, -5);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>(i % 5) * 3 - 4;
  wide[40] = 7;
  std::vector<Buffer> buffers = {Buffer("i32", keys), Buffer("i64", wide),
                                 Buffer("u32", std::vector<unsigned>(64))};
  check_identical(run_both("gk_match_reduce", {1, 1, 1}, {64, 1, 1}, buffers, [&] {
    gk_match_reduce(buffers[0].as<int>(), buffers[1].as<long long>(), buffers[2].as<unsigned>());
  }));

  std::vector<double> d(64);
  std::vector<long long> w(64);
  for (std::size_t i = 0; i < d.size(); ++i) {
    d[i] = 1.0 / (static_cast<double>(i) + 0.5);
    w[i] = static_cast<long long>(i) * 0x0123456789abLL;
  }
  std::vector<Buffer> more = {Buffer("f64", d), Buffer("i64", w),
                              Buffer("f64", std::vector<double>(64)),
                              Buffer("i64", std::vector<long long>(64))};
  check_identical(run_both("gk_wide", {2, 1, 1}, {32, 1, 1}, more, [&] {
    gk_wide(more[0].as<double>(), more[1].as<long long>(), more[2].as<double>(),
            more[3].as<long long>());
  }));
}

TEST_CASE("run_on_gpu: a small recorder capacity keeps the first calls and counts the rest") {
  if (!device_or_skip()) return;
  std::vector<float> in(32, 1.0f);
  std::vector<Buffer> buffers = {Buffer("f32", in), Buffer("f32", std::vector<float>(32))};
  const Outcome o = run_both(
      "gk_butterfly", {1, 1, 1}, {32, 1, 1}, buffers,
      [&] { gk_butterfly(buffers[0].as<float>(), buffers[1].as<float>()); }, 2);
  check_identical(o);
  CHECK(o.gpu->trace->dropped == 32 * 3);
  CHECK(o.comparison.steps->truncated_lanes == 32);
}

TEST_CASE("run_on_gpu: untraced, scalars by value, more than 48 KiB of dynamic shared memory") {
  if (!device_or_skip()) return;
  const std::string source = R"(
extern "C" __global__ void scale(const double* in, double* out, float factor, long long offset, unsigned n) {
  extern __shared__ double tile[];
  __shared__ int fixed[1024];
  const unsigned i = threadIdx.x;
  fixed[i % 1024] = 1;
  tile[i] = in[i] * factor + (double)offset;
  tile[8191 - i] = 0.0;
  __syncthreads();
  if (i < n) out[i] = tile[i] + fixed[0];
}
)";
  std::vector<double> in(64, 2.0);
  GpuRunRequest request;
  request.source = source;
  request.path = "scale.cu";
  request.kernel_expression = "::scale";
  request.kernel_name = "scale";
  for (const char* spec : {"f64[64]:zeros", "f64[64]:zeros", "f32:0.5", "i64:-3", "u32:60"}) {
    request.args.push_back(*runner::parse_arg_spec(spec));
  }
  const std::vector<double> zeros(64, 0.0);
  request.initial = {std::as_bytes(std::span(in)), std::as_bytes(std::span(zeros)), {}, {}, {}};
  request.grid = {1, 1, 1};
  request.block = {64, 1, 1};
  request.dynamic_shared_bytes = 64 * 1024;
  auto run = run_on_gpu(request);
  REQUIRE_MESSAGE(run, (run ? "" : to_string(run.error())));
  CHECK_FALSE(run->trace);
  REQUIRE(run->buffers.size() == 2);
  CHECK(run->buffers[1].arg == 1);
  std::vector<double> out(64);
  std::memcpy(out.data(), run->buffers[1].bytes.data(), out.size() * sizeof(double));
  CHECK(out[0] == 2.0 * 0.5 - 3.0 + 1.0);
  CHECK(out[59] == 2.0 * 0.5 - 3.0 + 1.0);
  CHECK(out[60] == 0.0);

  request.dynamic_shared_bytes = 1024 * 1024;
  auto too_much = run_on_gpu(request);
  REQUIRE_FALSE(too_much);
  CHECK(too_much.error().kind == ErrorKind::bad_input);
  CHECK(too_much.error().message.find("dynamic shared memory") != std::string::npos);
}

TEST_CASE("run_on_gpu: a device compile error is the user's file and line") {
  if (!device_or_skip()) return;
  GpuRunRequest request;
  request.source = "__global__ void k(int* x) {\n  x[0] = nope;\n}\n";
  request.path = "broken.cu";
  request.kernel_expression = "::k";
  request.kernel_name = "k";
  request.args = {*runner::parse_arg_spec("i32[1]:zeros")};
  const std::vector<int> one(1);
  request.initial = {std::as_bytes(std::span(one))};
  request.grid = request.block = {1, 1, 1};
  auto run = run_on_gpu(request);
  REQUIRE_FALSE(run);
  CHECK(run.error().kind == ErrorKind::compile);
  CHECK(run.error().details.find("broken.cu(2): error") != std::string::npos);
}
