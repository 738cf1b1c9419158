// The device-side recorder (device_trace_prelude.hpp) and the device compile of kernel files
// (kernel_launch.hpp: compile_for_device), checked with NVRTC for an explicit sm_90: no device.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "device_trace_prelude.hpp"
#include "kernel_launch.hpp"
#include "warpsim/intrinsic_table.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/value_bits.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A request for `kernel` (as --kernel names it) of the file at `path` whose text is `source`.
GpuRunRequest request_for(const std::string& source, const std::string& path,
                          const std::string& kernel, bool traced) {
  const auto choice = runner::resolve_kernel(runner::scan_kernels(source), kernel, path);
  REQUIRE_MESSAGE(choice, choice.error().message);
  GpuRunRequest request;
  request.source = source;
  request.path = path;
  request.kernel_expression = choice->expression;
  request.kernel_name = choice->name;
  request.trace.enabled = traced;
  return request;
}

// What is wrong with compiling `request` (empty: nothing). Safe off the test's thread.
std::string compile_problem(const GpuRunRequest& request, bool traced) {
  auto program = compile_for_device(request, 90);
  if (!program) return to_string(program.error());
  if (program->program.sm != 90 || program->kernel_symbol.empty()) return "no kernel symbol";
  if (!program->trace_note.empty()) return program->trace_note;
  if (program->trace_symbol.empty() == traced)
    return "trace symbol present: " + std::to_string(!traced);
  return {};
}

void require_compiles(const GpuRunRequest& request, bool traced) {
  CAPTURE(request.path);
  CAPTURE(request.kernel_expression);
  auto program = compile_for_device(request, 90);
  REQUIRE_MESSAGE(program, (program ? "" : to_string(program.error())));
  CHECK(program->program.sm == 90);
  CHECK_FALSE(program->kernel_symbol.empty());
  CHECK(program->trace_note.empty());
  CHECK(program->trace_symbol.empty() == !traced);
}

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

}  // namespace

TEST_CASE("the prelude redefines every traced intrinsic with the simulator's op and type codes") {
  const std::string prelude = device_trace_prelude();
  const auto names = traced_intrinsic_names();
  REQUIRE(names.size() == static_cast<std::size_t>(kOpCount));
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    CAPTURE(to_string(op));
    CHECK(names[static_cast<std::size_t>(i)] == intrinsic_for(op).name);
    // Once passing line 0 (inside CUDA's cooperative-groups headers), once passing __LINE__.
    CHECK(occurrences(prelude, "#define " + std::string(intrinsic_for(op).name) + "(") == 2);
    CHECK(prelude.find("WARPSIM_OP_" + std::string(to_string(op)) + " = " + std::to_string(i) +
                       ",") != std::string::npos);
  }
  CHECK(prelude.find("#define __syncthreads(...) warpsim_trace_syncthreads{__LINE__}(__VA_ARGS__)") !=
        std::string::npos);
  CHECK(occurrences(prelude, "#define __barrier_sync_count(") == 2);
  CHECK(prelude.find("struct warpsim_trace_barrier_sync_count {") != std::string::npos);
  CHECK(prelude.find("#define __syncwarp(...) warpsim_trace_syncwarp{__LINE__}(__VA_ARGS__)") !=
        std::string::npos);
  // CUDA's parameter lists, defaults included, behind the recorded line.
  CHECK(prelude.find("void operator()(unsigned int mask = 0xffffffffu) const {") !=
        std::string::npos);
  CHECK(prelude.find("__nv_bfloat162 operator()(unsigned int mask, __nv_bfloat162 value, unsigned "
                     "int delta, int width = warpSize) const {") != std::string::npos);
  CHECK(prelude.find("#if __CUDA_ARCH__ >= 800\nstruct warpsim_trace_reduce_add_sync {") !=
        std::string::npos);
  // fp16/bf16 define intrinsic overloads themselves: included before any macro exists.
  CHECK(prelude.find("#include <cuda_fp16.h>") < prelude.find("#define "));
  CHECK(prelude.find("#include <cooperative_groups.h>") >
        prelude.find("#define __shfl_sync(...) warpsim_trace_shfl_sync{0u}(__VA_ARGS__)"));
  CHECK(prelude.find("#include <cooperative_groups.h>") < prelude.find("(__LINE__"));

  const std::string plain =
      device_trace_prelude(false);  // a file that never names cooperative groups
  CHECK(plain.find("#include <cooperative_groups") == std::string::npos);
  CHECK(occurrences(plain, "#define __shfl_sync(") == 1);

  const std::string source = traced_source("__global__ void k() {}", "/x/my \"odd\" file.cu");
  CHECK(source.find("#line 1 \"/x/my \\\"odd\\\" file.cu\"\n__global__ void k() {}\n") !=
        std::string::npos);
}

TEST_CASE("cooperative groups are found in the file or in the headers it includes with quotes") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("warpsim_cg_scan_" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "plain.cuh")
      << "#pragma once\n__device__ int twice(int x) { return 2 * x; }\n";
  std::ofstream(dir / "sub" / "groups.cuh") << "#include <cooperative_groups.h>\n";
  std::ofstream(dir / "outer.cuh") << "#include \"plain.cuh\"\n  #  include \"sub/groups.cuh\"\n";
  std::ofstream(dir / "loop.cuh") << "#include \"loop.cuh\"\n";
  const std::string file = (dir / "k.cu").string();
  CHECK_FALSE(uses_cooperative_groups("__global__ void k() {}", file));
  CHECK(uses_cooperative_groups("#include <cooperative_groups.h>\n", file));
  CHECK(uses_cooperative_groups("namespace cg = cooperative_groups;", file));
  CHECK_FALSE(uses_cooperative_groups(
      "#include \"plain.cuh\"\n#include \"loop.cuh\"\n#include \"missing.cuh\"\n", file));
  CHECK(uses_cooperative_groups("#include \"outer.cuh\"\n", file));
  CHECK(uses_cooperative_groups("#include \"groups.cuh\"\n", "/elsewhere/k.cu",
                                std::vector<std::string>{(dir / "sub").string()}));
  fs::remove_all(dir);
}

TEST_CASE("the table types each operand as the simulator's shim does (value_bits.hpp)") {
  const std::pair<std::string_view, ValueType> simulator[] = {
      {"int", shim::ValueBits<int>::type},
      {"unsigned int", shim::ValueBits<unsigned int>::type},
      {"long long", shim::ValueBits<long long>::type},
      {"unsigned long long", shim::ValueBits<unsigned long long>::type},
      {"float", shim::ValueBits<float>::type},
      {"double", shim::ValueBits<double>::type},
      {"long", shim::ValueBits<long>::type},
      {"unsigned long", shim::ValueBits<unsigned long>::type},
      {"__half", shim::ValueBits<__half>::type},
      {"__half2", shim::ValueBits<__half2>::type},
      {"__nv_bfloat16", shim::ValueBits<__nv_bfloat16>::type},
      {"__nv_bfloat162", shim::ValueBits<__nv_bfloat162>::type},
  };
  REQUIRE(kShuffleOperandTypes.size() == std::size(simulator));
  for (std::size_t i = 0; i < kShuffleOperandTypes.size(); ++i) {
    CAPTURE(kShuffleOperandTypes[i].cuda_name);
    CHECK(kShuffleOperandTypes[i].cuda_name == simulator[i].first);
    CHECK(kShuffleOperandTypes[i].type == simulator[i].second);
  }
}

TEST_CASE(
    "NVRTC compiles the prelude with zero-argument forms, templates, tiles and halves (sm_90)") {
  const std::string zero_args = R"(
namespace ns {
template <int N>
__global__ void forms(unsigned* out) {
  __syncwarp();
  __syncwarp(0xffffffffu);
  const unsigned active = __activemask();
  __syncthreads();
  out[threadIdx.x] = active + N + __syncthreads_count(1) + __syncthreads_and(1) + __syncthreads_or(0);
  int p;
  out[threadIdx.x] += ::__match_all_sync(__activemask(), 1.0f, &p) + __match_any_sync(~0u, 2ull) +
                      __reduce_add_sync(~0u, 1u) + (unsigned)__shfl_down_sync(~0u, 1L, 1u);
}
}  // namespace ns
)";
  const std::string path = "/tmp/zero_args.cu";
  require_compiles(request_for(zero_args, path, "ns::forms<4>", true), true);
  require_compiles(request_for(zero_args, path, "forms<4>", false), false);

  const std::string kernels_path = kSourceDir + "/tests/gpu/kernels/run_on_gpu_kernels.cuh";
  const std::string kernels = read_text(kernels_path);
  std::vector<std::pair<std::string, std::future<std::string>>> jobs;
  for (const char* kernel : {"gk_butterfly", "gk_ballot_barrier", "tiles::reduce<16>", "gk_halves",
                             "gk_match_reduce", "gk_wide"}) {
    const GpuRunRequest request = request_for(kernels, kernels_path, kernel, true);
    jobs.emplace_back(kernel, std::async(std::launch::async,
                                         [request] { return compile_problem(request, true); }));
  }
  for (auto& [kernel, job] : jobs) {
    CAPTURE(kernel);
    CHECK(job.get() == "");
  }
  require_compiles(request_for(kernels, kernels_path, "tiles::reduce<8>", false), false);

  // Named barriers: __barrier_sync and __barrier_sync_count, each behind its recording wrapper.
  const std::string named_path = kSourceDir + "/tests/shim/kernels/named_barriers.cu";
  const std::string named = read_text(named_path);
  for (const char* kernel : {"producer_consumer", "diverged_arrival", "whole_block"}) {
    CAPTURE(kernel);
    CHECK(compile_problem(request_for(named, named_path, kernel, true), true) == "");
  }
}

TEST_CASE("every corpus kernel compiles for the device, traced and as written (sm_90)") {
  const std::string corpus = kSourceDir + "/tests/corpus/";
  const auto manifest = nlohmann::json::parse(read_text(corpus + "corpus.json"));
  std::vector<std::pair<std::string, std::future<std::string>>> jobs;  // NVRTC is thread-safe
  for (const auto& entry : manifest["entries"]) {
    const std::string path = corpus + entry["file"].get<std::string>();
    const GpuRunRequest request =
        request_for(read_text(path), path, entry["kernel"].get<std::string>(), true);
    jobs.emplace_back(
        path, std::async(std::launch::async, [request] { return compile_problem(request, true); }));
  }
  CHECK(jobs.size() >= 25);
  for (auto& [path, job] : jobs) {
    CAPTURE(path);
    CHECK(job.get() == "");
  }
  // As written, without the prelude: a few, including the ones needing <math.h> and <cstdio>.
  for (const char* file :
       {"kernels/11_online_softmax.cu", "kernels/17_device_printf.cu", "kernels/19_half2_dot.cu"}) {
    const std::string path = corpus + file;
    const std::string source = read_text(path);
    const auto kernels = runner::scan_kernels(source);
    REQUIRE_FALSE(kernels.empty());
    require_compiles(request_for(source, path, kernels.front().name, false), false);
  }
}

TEST_CASE("compile errors name the user's file and line, traced or not") {
  const std::string source =
      "// a comment\n__global__ void k(int* out) {\n  out[0] = not_declared;\n}\n";
  for (const bool traced : {false, true}) {
    CAPTURE(traced);
    auto program = compile_for_device(request_for(source, "/work/user/broken.cu", "k", traced), 90);
    REQUIRE_FALSE(program);
    CHECK(program.error().kind == ErrorKind::compile);
    CHECK(program.error().details.find(
              "/work/user/broken.cu(3): error: identifier \"not_declared\" is undefined") !=
          std::string::npos);
    CHECK(program.error().details.find("warpsim-device-trace") == std::string::npos);
  }
}

TEST_CASE("the standard headers NVRTC lacks are there for kernel files") {
  const std::string source = R"(#include <math.h>
#include <cmath>
#include <stdio.h>
#include <cstdio>
#include <cstdint>
#include <stdint.h>
#include <climits>
#include <cfloat>
#include <cstddef>
#include <type_traits>
#include <algorithm>
#include <utility>
#include <limits>
__global__ void uses_them(float* out, std::size_t n) {
  const std::int32_t i = static_cast<int32_t>(threadIdx.x);
  float v = std::sqrt(out[i]) + sqrtf(out[i]) + expf(-INFINITY) + static_cast<float>(M_PI) + FLT_EPSILON;
  v = std::max(v, std::fabs(v)) + (std::is_same<int, std::int32_t>::value ? 1.0f : 0.0f) + (INT_MAX > 0 ? 1.0f : 0.0f);
  v += std::numeric_limits<float>::lowest() < 0 ? 1.0f : 0.0f;
  if (isnan(v) || std::isinf(v) || n == 0) printf("odd value %f\n", v);
  out[i] = v;
}
)";
  require_compiles(request_for(source, "/tmp/std_headers.cu", "uses_them", false), false);
  require_compiles(request_for(source, "/tmp/std_headers.cu", "uses_them", true), true);
}
