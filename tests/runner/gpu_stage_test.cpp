// The `run --gpu` plumbing of the runner, without a GPU: a fake GPU stage stands in for
// warpsim::gpu and returns canned results; the tests check what the stage receives and how
// `run_kernel_file(RunOptions, ...)` reports what it returns.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "warpsim/runner.hpp"

namespace fs = std::filesystem;
using namespace warpsim;
using namespace warpsim::runner;

namespace {

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";

// Compiled kernels go to a cache of this test's own (unless the caller chose one).
void use_scratch_cache() {
  static const bool done = [] {
    if (std::getenv("WARPSIM_CACHE_DIR") == nullptr) {
      const fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "tests" / "runner" / "kernel-cache";
      fs::create_directories(dir);
      setenv("WARPSIM_CACHE_DIR", dir.c_str(), 1);
    }
    return true;
  }();
  (void)done;
}

RunOptions butterfly() {
  use_scratch_cache();
  RunOptions o;
  o.file = kKernels + "butterfly_reduce.cu";
  o.kernel = "butterfly_reduce";
  o.grid = {1, 1, 1};
  o.block = {32, 1, 1};
  for (const char* spec : {"f32[32]:iota", "f32[32]:zeros", "i32:32"}) {
    o.args.push_back(*parse_arg_spec(spec));
  }
  return o;
}

struct Captured {
  int calls = 0;
  std::string source;
  std::string kernel_name;
  std::size_t args = 0;
  std::vector<OutputBuffer> initial, final_buffers;
  std::size_t trace_steps = 0;
  Dim3 grid{}, block{};
};

GpuStage canned(Captured& captured, GpuStageResult result) {
  return [&captured, result](const GpuStageInput& input) {
    ++captured.calls;
    captured.source = std::string(input.source);
    captured.kernel_name = input.kernel.name;
    captured.args = input.args != nullptr ? input.args->size() : 0;
    captured.initial = input.initial;
    captured.final_buffers = input.final_buffers;
    captured.trace_steps = input.trace != nullptr ? input.trace->steps.size() : 0;
    captured.grid = input.grid;
    captured.block = input.block;
    return result;
  };
}

GpuStageResult comparison() {
  GpuStageResult r;
  r.json = R"({"device":"Fake GPU","identical":true,"buffers":[]})";
  r.text = "GPU: Fake GPU (sm_90)\n  buffer arg 1 (f32[32]): identical\n";
  r.printf_output = "hello from the device\n";
  return r;
}

float element(const OutputBuffer& buffer, std::size_t i) {
  float value = 0;
  std::memcpy(&value, buffer.bytes.data() + i * sizeof value, sizeof value);
  return value;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the GPU stage gets the source, the initial and final buffers and the trace") {
  Captured captured;
  RunOptions o = butterfly();
  o.json = true;
  o.gpu_stage = canned(captured, comparison());
  std::ostringstream out, err;
  const int status = run_kernel_file(o, out, err);
  INFO(err.str());
  REQUIRE(status == kExitRan);
  REQUIRE(captured.calls == 1);
  CHECK(contains(captured.source, "__global__ void butterfly_reduce"));
  CHECK(captured.kernel_name == "butterfly_reduce");
  CHECK(captured.args == 3);
  CHECK(captured.grid.x == 1);
  CHECK(captured.block.x == 32);
  CHECK(captured.trace_steps == 5);
  REQUIRE(captured.initial.size() == 2);
  REQUIRE(captured.final_buffers.size() == 2);
  CHECK(captured.initial[1].arg == 1);
  CHECK(element(captured.initial[0], 31) == 31.0f);
  CHECK(element(captured.initial[1], 0) == 0.0f);  // before the launch: zeros
  CHECK(element(captured.final_buffers[1], 0) == 496.0f);

  // The --json object ends with the stage's "gpu" member.
  const std::string json = out.str();
  CHECK(contains(json, R"(,"gpu":{"device":"Fake GPU","identical":true,"buffers":[]}})"));
  CHECK(json.rfind("{\"kernel\":\"butterfly_reduce\"", 0) == 0);
}

TEST_CASE("the readable report shows the GPU comparison and the device's printf") {
  Captured captured;
  RunOptions o = butterfly();
  o.gpu_stage = canned(captured, comparison());
  std::ostringstream out, err;
  CHECK(run_kernel_file(o, out, err) == kExitRan);
  const std::string text = out.str();
  const std::size_t sim = text.find("diagnostics: none");
  const std::size_t gpu = text.find("GPU: Fake GPU (sm_90)");
  REQUIRE(sim != std::string::npos);
  REQUIRE(gpu != std::string::npos);
  CHECK(sim < gpu);
  CHECK(contains(text, "GPU printf:\n  hello from the device\n"));
}

TEST_CASE("GPU stage errors map to exit statuses; a missing device prints one line only") {
  Captured captured;
  std::ostringstream out, err;
  RunOptions o = butterfly();
  o.json = true;

  SUBCASE("compile error: 2, the compiler's log and the simulator's report") {
    GpuStageResult r;
    r.error = GpuStageError::compile;
    r.message = "NVRTC could not compile butterfly_reduce.cu";
    r.details = "butterfly_reduce.cu(7): error: identifier \"x\" is undefined";
    o.gpu_stage = canned(captured, r);
    CHECK(run_kernel_file(o, out, err) == kExitBadInput);
    CHECK(contains(err.str(), "butterfly_reduce.cu(7): error"));
    CHECK(contains(err.str(), "warpsim run: --gpu: NVRTC could not compile"));
    CHECK(contains(out.str(), R"("gpu":{"error":"compile")"));
  }
  SUBCASE("invalid argument: 2") {
    GpuStageResult r;
    r.error = GpuStageError::invalid_argument;
    r.message = "the block is too large for the device";
    o.gpu_stage = canned(captured, r);
    CHECK(run_kernel_file(o, out, err) == kExitBadInput);
  }
  SUBCASE("driver failure: 1") {
    GpuStageResult r;
    r.error = GpuStageError::failed;
    r.message = "the kernel faulted";
    o.gpu_stage = canned(captured, r);
    CHECK(run_kernel_file(o, out, err) == kExitKernelFailed);
  }
  SUBCASE("no device: 3, one line on stderr, nothing on stdout") {
    GpuStageResult r;
    r.error = GpuStageError::no_device;
    r.message = "no CUDA device";
    o.gpu_stage = canned(captured, r);
    CHECK(run_kernel_file(o, out, err) == kExitNoGpu);
    CHECK(out.str().empty());
    CHECK(err.str() == "warpsim run: --gpu: no CUDA device\n");
  }
  SUBCASE("a throwing stage is a failure, not a crash") {
    o.gpu_stage = [](const GpuStageInput&) -> GpuStageResult {
      throw std::runtime_error("boom");
    };
    CHECK(run_kernel_file(o, out, err) == kExitKernelFailed);
    CHECK(contains(err.str(), "boom"));
  }
  CHECK(captured.calls <= 1);
}

TEST_CASE("the GPU stage is not called when the simulation deadlocks") {
  use_scratch_cache();
  Captured captured;
  RunOptions o;
  o.file = kKernels + "deadlock.cu";
  o.kernel = "stuck";
  o.grid = {1, 1, 1};
  o.block = {32, 1, 1};
  o.args.push_back(*parse_arg_spec("i32[32]:zeros"));
  o.json = true;
  o.gpu_stage = canned(captured, comparison());
  std::ostringstream out, err;
  CHECK(run_kernel_file(o, out, err) == kExitKernelFailed);
  CHECK(captured.calls == 0);
  CHECK(contains(out.str(), R"("gpu":{"skipped":)"));
  CHECK(contains(err.str(), "not run on the GPU"));
}

TEST_CASE("without a GPU stage the output has no gpu member") {
  RunOptions o = butterfly();
  o.json = true;
  std::ostringstream out, err;
  CHECK(run_kernel_file(o, out, err) == kExitRan);
  CHECK_FALSE(contains(out.str(), "\"gpu\""));
}
