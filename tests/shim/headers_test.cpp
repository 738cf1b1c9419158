// Headers kernel files include: cuda.h's and the runtime's types, cuRAND's device API, libcu++
// (from the CUDA toolkit, compiled as host code); and the headers warpsim does not simulate stop
// the compile with a message that names them.
#include <doctest/doctest.h>

#include <curand_kernel.h>

#include <filesystem>
#include <string>
#include <vector>

#include "kernel_file_helpers.hpp"

namespace {

warpsim::KernelFileResult run_file(const std::string& path, const std::string& kernel,
                                   std::vector<warpsim::KernelArg> args, unsigned threads) {
  warpsim::test::use_shim_test_cache();
  warpsim::KernelFileRequest request;
  request.file = std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/" + path;
  request.kernel = kernel;
  request.grid = {1};
  request.block = {threads};
  request.args = std::move(args);
  return warpsim::run_kernel_file(request);
}

bool toolkit_libcudacxx() {
  for (const char* root : {"CUDA_HOME", "CUDA_PATH"}) {
    const char* dir = std::getenv(root);
    if (dir != nullptr &&
        std::filesystem::exists(std::string(dir) + "/include/cccl/cuda/std/version")) {
      return true;
    }
  }
  return std::filesystem::exists("/usr/local/cuda/include/cccl/cuda/std/version");
}

}  // namespace

TEST_CASE("cuda.h, the runtime's error codes and curand_kernel.h in a kernel file") {
  const auto r = warpsim::test::run_shim_kernel(
      "headers.cu", "headers", {warpsim::zeros<float>(32), warpsim::zeros<int>(4)});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const std::vector<float> out = r.buffer<float>(0);
  for (unsigned t = 0; t < 32; ++t) {  // each lane's own subsequence, as the host computes it
    curandState state;
    curand_init(1234, t, 0, &state);
    CHECK(out[t] == curand_uniform(&state));
  }
  CHECK(r.buffer<int>(1) == std::vector<int>{0, 0, 0, 'o'});  // "out of memory"
}

TEST_CASE("libcu++ headers come from the CUDA toolkit, compiled as host code") {
  if (!toolkit_libcudacxx()) {
    MESSAGE("skipped: no CUDA toolkit with include/cccl (set CUDA_HOME)");
    return;
  }
  const auto r = run_file("libcudacxx/cuda_std.cu", "cuda_std", {warpsim::zeros<int>(4)}, 32);
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  CHECK(r.buffer<int>(0) == std::vector<int>{31, 32, 6, 1});
}

TEST_CASE("what warpsim does not simulate stops the compile, naming it") {
  const std::vector<std::pair<std::string, std::string>> rejected{
      {"philox.cu",
       "this cuRAND generator is not simulated: warpsim's curand_kernel.h has the "
       "default XORWOW generator (curandState) only"},
      {"cuda_latch.cu", "<cuda/latch> is not simulated by warpsim"},
  };
  for (const auto& [file, message] : rejected) {
    CAPTURE(file);
    const std::string kernel = file == "philox.cu" ? "uses_philox" : "uses_latch";
    const auto r = run_file("rejected/" + file, kernel, {warpsim::zeros<float>(1)}, 1);
    CHECK(r.status == warpsim::RunStatus::bad_input);
    CHECK_MESSAGE((r.message + "\n" + r.details).find(message) != std::string::npos, r.details);
  }
}

TEST_CASE("<mma.h> compiles; a lane that reaches nvcuda::wmma stops there, naming the call") {
  const auto plain = run_file("kernels/wmma_stops.cu", "no_wmma", {warpsim::zeros<float>(32)}, 32);
  REQUIRE_MESSAGE(plain.status == warpsim::RunStatus::completed, plain.message);
  CHECK(plain.buffer<float>(0)[31] == 62.0f);
  const auto tensor = run_file("kernels/wmma_stops.cu", "uses_wmma",
                               {warpsim::zeros<float>(512), warpsim::zeros<float>(256)}, 32);
  CHECK(tensor.status == warpsim::RunStatus::kernel_exception);
  CHECK_MESSAGE(tensor.message.find("wmma_stops.cu:14: wmma::fill_fragment is not simulated") !=
                    std::string::npos,
                tensor.message);
}

TEST_CASE("__pipeline_memcpy_async copies into shared memory; zfill zeros; misalignment stops") {
  const auto staged =
      run_file("kernels/pipeline_copy.cu", "staged",
               {warpsim::iota<int>(32 * 4), warpsim::zeros<int>(32 * 4)}, 32);
  REQUIRE_MESSAGE(staged.status == warpsim::RunStatus::completed, staged.message);
  const std::vector<int> out = staged.buffer<int>(1);
  for (int t = 0; t < 32; ++t) {
    for (int i = 0; i < 4; ++i) CHECK(out[4 * t + i] == 4 * ((t + 1) % 32) + i);
  }
  const auto zfill = run_file("kernels/pipeline_copy.cu", "zero_filled",
                              {warpsim::iota<int>(32 * 4), warpsim::zeros<int>(32 * 4)}, 32);
  REQUIRE_MESSAGE(zfill.status == warpsim::RunStatus::completed, zfill.message);
  const std::vector<int> zeros_after = zfill.buffer<int>(1);
  CHECK(std::vector<int>(zeros_after.begin(), zeros_after.begin() + 8) ==
        std::vector<int>{0, 1, 0, 0, 4, 5, 0, 0});
  const auto misaligned = run_file("kernels/pipeline_copy.cu", "misaligned",
                                   {warpsim::iota<int>(32 * 4), warpsim::zeros<int>(32 * 4)}, 32);
  CHECK(misaligned.status == warpsim::RunStatus::kernel_exception);
  CHECK_MESSAGE(misaligned.message.find("pipeline_copy.cu:27: misaligned address") !=
                    std::string::npos,
                misaligned.message);
}

TEST_CASE("the headers and names LLM kernel libraries use: fp8 types, math API, memcpy, launch config") {
  if (!toolkit_libcudacxx()) {
    MESSAGE("skipped: <cuda_fp8.h> comes from a CUDA toolkit (set CUDA_HOME)");
    return;
  }
  const auto r = run_file("kernels/llm_headers.cu", "llm_headers", {warpsim::zeros<float>(6)}, 1);
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message, r.details);
  const std::vector<float> out = r.buffer<float>(0);
  CHECK(out[0] == 0.3125f);
  CHECK(out[1] == -3.5f);
  CHECK(out[2] == 0.5f);
  CHECK(out[3] == 1.0f);
  CHECK(out[4] == doctest::Approx(7.0f).epsilon(1e-6));  // CUDA: 2 ulp
  CHECK(out[5] == 448.0f);
}
