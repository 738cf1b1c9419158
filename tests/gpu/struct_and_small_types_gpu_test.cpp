// `run --gpu` on a CUDA device (ctest label "gpu") for what the GPU side newly takes: structs
// passed by value (tests/runner/kernels/struct_args.cu), the 8/16-bit, f16, bf16 and b8 element
// types (element_types.cu) and -I/-D (compile_options.cu). Each file runs in the simulator
// (warpsim run's own path) and on the GPU from the same initial bytes; every buffer must be
// identical. Without a device each case prints "skipped: no CUDA device (...)" and passes.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "device_or_skip.hpp"
#include "gpu_report.hpp"
#include "kernel_launch.hpp"
#include "warpsim/compared_buffers.hpp"
#include "warpsim/runner.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

namespace {

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";

runner::ArgSpec spec(const std::string& text) {
  auto parsed = runner::parse_arg_spec(text);
  REQUIRE_MESSAGE(parsed, parsed.error().message);
  return *parsed;
}

// Runs `kernel` of `file` in the simulator and on the GPU; returns the comparison.
GpuComparison run_both(const std::string& file, const std::string& kernel, unsigned threads,
                       const std::vector<std::string>& args,
                       const std::vector<std::string>& include_dirs = {},
                       const std::vector<std::string>& defines = {}) {
  runner::KernelFileRequest request;
  request.file = kKernels + file;
  request.kernel = kernel;
  request.grid = {1};
  request.block = {threads};
  for (const std::string& a : args) request.args.push_back(spec(a));
  request.include_dirs = include_dirs;
  request.defines = defines;
  request.keep_initial_buffers = true;
  const runner::KernelFileResult sim = runner::run_kernel_file(request);
  REQUIRE_MESSAGE(sim.status == runner::RunStatus::completed, (sim.message + sim.details));
  auto source = runner::read_text_file(request.file);
  REQUIRE(source);
  const GpuRunRequest gpu_request = gpu_request_for(request, sim, *source);
  auto run = run_on_gpu(gpu_request);
  REQUIRE_MESSAGE(run, (run ? "" : to_string(run.error())));
  const runner::ComparedBuffers sim_buffers(sim.buffers);
  GpuComparison comparison = compare_run(*run, &sim.trace, sim_buffers.data());
  MESSAGE(cli::format_gpu_comparison_text(comparison));
  REQUIRE(comparison.buffers.size() == sim.buffers.size());
  for (const BufferComparison& b : comparison.buffers) {
    CAPTURE(b.arg);
    CAPTURE(b.field);
    CHECK(b.identical());
  }
  return comparison;
}

}  // namespace

TEST_CASE("--gpu: a struct by value with a pointer field, as simulated") {
  if (!test::device_or_skip()) return;
  const GpuComparison c = run_both("struct_args.cu", "scale_by_params", 64,
                                   {"{i32:40; f32:0.5; f32[64]:iota}", "f32[64]:zeros"});
  CHECK(c.buffers[0].field == 2);
  run_both("struct_args.cu", "write_through_mixed", 32,
           {"{i8:-3; f64:2.5; i32[32]:zeros; i16:-300}"});
  run_both("struct_args.cu", "tagged", 32, {"{i32:40; i32[32]:zeros}"});
  run_both("struct_args.cu", "by_float4", 32, {"{f32:1; f32:2; f32:3; f32:4}", "f32[32]:zeros"});
  run_both("struct_args.cu", "int_pointer_short", 32,
           {"{i32:7; u64[32]:iota; i16:-5}", "u64[2]:zeros"});
}

TEST_CASE("--gpu: 8- and 16-bit, f16, bf16 and bool buffers and scalars, as simulated") {
  if (!test::device_or_skip()) return;
  run_both("element_types.cu", "u8_kernel", 32, {"u8[32]:iota", "u8[32]:zeros", "u8:200"});
  run_both("element_types.cu", "i8_kernel", 32, {"i8[32]:random:3", "i8[32]:zeros", "i8:-100"});
  run_both("element_types.cu", "u16_kernel", 32, {"u16[32]:iota", "u16[32]:zeros", "u16:65000"});
  run_both("element_types.cu", "i16_kernel", 32, {"i16[32]:random:4", "i16[32]:zeros", "i16:-7"});
  run_both("element_types.cu", "f16_kernel", 32, {"f16[32]:random:5", "f16[32]:zeros", "f16:0.5"});
  run_both("element_types.cu", "bf16_kernel", 32,
           {"bf16[32]:random:6", "bf16[32]:zeros", "bf16:1.5"});
  run_both("element_types.cu", "b8_kernel", 32, {"b8[32]:iota", "b8[32]:zeros", "b8:true"});
}

TEST_CASE("--gpu: -I and -D reach NVRTC as they reach the simulator's compiler") {
  if (!test::device_or_skip()) return;
  run_both("compile_options.cu", "scaled", 32, {"i32[32]:zeros"}, {kKernels + "include_dir"},
           {"OFFSET=5", "TWICE"});
}
