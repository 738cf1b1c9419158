// Kernel files see nvcc's device-pass macros for the architecture they are compiled for
// (KernelFileRequest::arch), take the same #if paths as on a GPU, and fail to compile where they
// call an intrinsic that architecture lacks.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kernel_file_helpers.hpp"
#include "support/run_warpsim.hpp"

using warpsim::RunStatus;
using warpsim::test::run_shim_kernel;

TEST_CASE("a kernel file sees __CUDA_ARCH__ and the CUDA 13.0 version macros of its architecture") {
  for (const auto& [arch, number] : std::vector<std::pair<std::string, int>>{
           {"sm_90", 900}, {"sm_80", 800}, {"sm_70", 700}, {"sm_86", 860}}) {
    CAPTURE(arch);
    const auto r = run_shim_kernel("arch_paths.cu", "arch_macros", {warpsim::zeros<int>(8)}, 1, arch);
    REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
    CHECK(r.buffer<int>(0) == std::vector<int>{number, 1, 1, 13000, 13, 0, 88, number});
    CHECK(r.warnings.empty());
  }
}

TEST_CASE("#if __CUDA_ARCH__ >= 800 takes the device path of the chosen architecture") {
  std::vector<int> ones(32, 1);
  // Each architecture in turn, and sm_90 again: the cache keeps one build per architecture.
  for (const auto& [arch, steps] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"sm_90", 1}, {"sm_70", 5}, {"sm_80", 1}, {"sm_90", 1}, {"sm_75", 5}}) {
    CAPTURE(arch);
    const auto r = run_shim_kernel("arch_paths.cu", "warp_sum",
                                   {warpsim::buffer(ones), warpsim::zeros<int>(32)}, 32, arch);
    REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
    CHECK(r.steps == steps);  // one __reduce_add_sync, or five __shfl_xor_sync
    CHECK(r.buffer<int>(1) == std::vector<int>(32, 32));
  }
}

TEST_CASE("cg::reduce uses __reduce_add_sync only from sm_80 on, as CUDA's headers do") {
  for (const auto& [arch, steps] :
       std::vector<std::pair<std::string, std::uint64_t>>{{"sm_90", 2}, {"sm_70", 8}}) {
    CAPTURE(arch);
    const auto r = run_shim_kernel("cg_tile_reduce.cu", "tile_reduce",
                                   {warpsim::iota<int>(32), warpsim::zeros<int>(32)}, 32, arch);
    REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
    CHECK(r.steps == steps);  // per tile of 16: one redux, or a 4-step butterfly
    CHECK(r.buffer<int>(1)[0] == 120);
    CHECK(r.buffer<int>(1)[31] == 376);
  }
}

TEST_CASE("an intrinsic newer than the chosen architecture fails to compile, naming both") {
  const auto r = run_shim_kernel("needs_sm80.cu", "reduce_everywhere",
                                 {warpsim::iota<int>(32), warpsim::zeros<int>(32)}, 32, "sm_75");
  CHECK(r.status == RunStatus::bad_input);
  CHECK(r.message.find("did not compile") != std::string::npos);
  CHECK(r.details.find("__reduce_add_sync needs sm_80 or newer (__CUDA_ARCH__ >= 800), but this "
                       "file is compiled with __CUDA_ARCH__ 750") != std::string::npos);
  const auto ok = run_shim_kernel("needs_sm80.cu", "reduce_everywhere",
                                  {warpsim::iota<int>(32), warpsim::zeros<int>(32)}, 32, "sm_80");
  CHECK_MESSAGE(ok.status == RunStatus::completed, ok.message);
}

TEST_CASE("a kernel whose whole body the preprocessor removes runs with a warning, not silently") {
  for (int round = 0; round < 2; ++round) {  // compiled, then from the cache: the warning stays
    CAPTURE(round);
    const auto r =
        run_shim_kernel("arch_paths.cu", "ampere_only", {warpsim::zeros<int>(32)}, 32, "sm_70");
    REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
    CHECK(r.steps == 0);
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0].find("kernel 'ampere_only' has an empty body when compiled for sm_70") !=
          std::string::npos);
  }
  const auto sm90 =
      run_shim_kernel("arch_paths.cu", "ampere_only", {warpsim::zeros<int>(32)}, 32, "sm_90");
  CHECK(sm90.steps == 1);
  CHECK(sm90.warnings.empty());
  const auto empty =
      run_shim_kernel("arch_paths.cu", "empty_on_purpose", {warpsim::zeros<int>(32)}, 32, "sm_70");
  CHECK(empty.status == RunStatus::completed);
  CHECK(empty.warnings.empty());  // written empty: nothing was removed
}

TEST_CASE("an architecture warpsim does not compile for is bad input that lists the known ones") {
  const auto r = run_shim_kernel("arch_paths.cu", "arch_macros", {warpsim::zeros<int>(8)}, 1, "sm_100");
  CHECK(r.status == RunStatus::bad_input);
  CHECK(r.message ==
        "unknown architecture 'sm_100': warpsim compiles kernel files for sm_70, sm_75, sm_80, "
        "sm_86, sm_87, sm_89 or sm_90");
}

TEST_CASE("warpsim run prints the empty-body warning on stderr and still runs the kernel") {
  const auto run = warpsim::test::run_process(
      {WARPSIM_CLI_PATH, "run", std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/kernels/arch_paths.cu",
       "--kernel", "host_pass_only", "--grid", "1", "--block", "1", "--arg", "i32[1]:zeros",
       "--json"},
      std::filesystem::temp_directory_path() / "warpsim-arch-cli-test");
  CHECK(run.exit_code == 0);
  CHECK(run.err ==
        "warpsim run: warning: kernel 'host_pass_only' has an empty body when compiled for sm_90 "
        "(__CUDA_ARCH__ 900): the preprocessor removed all of its code (an #if on __CUDA_ARCH__ "
        "or another macro?), so it runs and does nothing\n");
}
