// End to end: kernel files that include <cooperative_groups.h> through the built `warpsim` binary,
// which compiles them against the shim in a child process.
#include <doctest/doctest.h>

#include "support/run_warpsim.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kKernel =
    std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/kernels/cg_tile_reduce.cu";

// Runs `warpsim run ARGS... --json` with a kernel cache of its own.
warpsim::test::ProcessOutcome warpsim_run(std::vector<std::string> args) {
  std::vector<std::string> argv{WARPSIM_CLI_PATH, "run", kKernel};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  return warpsim::test::run_process(argv, fs::temp_directory_path() / "warpsim-cg-cli-test");
}

}  // namespace

TEST_CASE("warpsim run compiles a kernel file that includes <cooperative_groups.h>") {
  const auto run = warpsim_run(
      {"--kernel", "tile_reduce", "--grid", "1", "--block", "32", "--arg", "i32[32]:iota", "--arg",
       "i32[32]:zeros"});
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  const json result = json::parse(run.out);
  CHECK(result["steps"] == 2);  // one __reduce_add_sync per tile of 16
  CHECK(result["diagnostics"].empty());
  CHECK(result["buffers"][1]["values"][0] == 120);   // 0 + 1 + ... + 15
  CHECK(result["buffers"][1]["values"][31] == 376);  // 16 + ... + 31
}

TEST_CASE("warpsim run reports a grid barrier across blocks at the kernel's line") {
  const auto run =
      warpsim_run({"--kernel", "grid_barrier", "--grid", "2", "--block", "32", "--arg", "i32[64]:zeros"});
  INFO(run.out);
  CHECK(run.exit_code != 0);
  const json result = json::parse(run.out);
  REQUIRE(result["diagnostics"].size() == 1);
  const std::string message = result["diagnostics"][0]["message"];
  CHECK(message.find("grid_group::sync()") != std::string::npos);
  CHECK(message.find("cg_tile_reduce.cu:16") != std::string::npos);
}
