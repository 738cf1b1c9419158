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
      {"mma.cu", "<mma.h> is not simulated by warpsim: warp matrix multiply-accumulate"},
      {"pipeline.cu", "<cuda_pipeline.h> is not simulated by warpsim"},
      {"philox.cu",
       "this cuRAND generator is not simulated: warpsim's curand_kernel.h has the "
       "default XORWOW generator (curandState) only"},
      {"cuda_barrier.cu", "<cuda/barrier> is not simulated by warpsim"},
  };
  for (const auto& [file, message] : rejected) {
    CAPTURE(file);
    std::string kernel = file == "mma.cu"        ? "uses_wmma"
                         : file == "pipeline.cu" ? "uses_pipeline"
                         : file == "philox.cu"   ? "uses_philox"
                                                 : "uses_barrier";
    const auto r = run_file("rejected/" + file, kernel, {warpsim::zeros<float>(1)}, 1);
    CHECK(r.status == warpsim::RunStatus::bad_input);
    CHECK_MESSAGE((r.message + "\n" + r.details).find(message) != std::string::npos, r.details);
  }
}
