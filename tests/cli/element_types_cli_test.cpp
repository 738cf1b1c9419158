// `warpsim run` end to end with the --arg element types beyond 32/64-bit and with -I/-D: the
// text and JSON reports show each element as its value (f16/bf16 as floats).
#include <doctest/doctest.h>

#include "support/run_warpsim.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";

warpsim::test::ProcessOutcome run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv{WARPSIM_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return warpsim::test::run_process(
      argv, std::filesystem::path(WARPSIM_BINARY_DIR) / "tests" / "cli" / "element-types-scratch");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("f16, i8 and b8 buffers print as values in the text and JSON reports") {
  const auto f16 = run_cli({"run", kKernels + "element_types.cu", "--kernel", "f16_kernel", "--grid",
                            "1", "--block", "4", "--arg", "f16[4]:0.5,1.5,-2,65504", "--arg",
                            "f16[4]:zeros", "--arg", "f16:2"});
  INFO(f16.out << f16.err);
  CHECK(f16.exit_code == 0);
  CHECK(contains(f16.out, "arg 1  f16[4]  [1, 3, -4, inf]"));

  const auto i8 = run_cli({"run", kKernels + "element_types.cu", "--kernel", "i8_kernel", "--grid",
                           "1", "--block", "2", "--arg", "i8[2]:1,2", "--arg", "i8[2]:zeros", "--arg",
                           "i8:-127", "--json"});
  INFO(i8.out << i8.err);
  REQUIRE(i8.exit_code == 0);
  const json result = json::parse(i8.out);
  CHECK(result["buffers"][1]["type"] == "i8");
  CHECK(result["buffers"][1]["values"] == json::array({-128, 127}));  // -127 - 2 wraps

  const auto bf16 = run_cli({"run", kKernels + "element_types.cu", "--kernel", "bf16_kernel",
                             "--grid", "1", "--block", "2", "--arg", "bf16[2]:1,-3", "--arg",
                             "bf16[2]:zeros", "--arg", "bf16:0.25", "--json"});
  REQUIRE(bf16.exit_code == 0);
  CHECK(json::parse(bf16.out)["buffers"][1]["values"] == json::array({1.25, -2.75}));

  const auto b8 = run_cli({"run", kKernels + "element_types.cu", "--kernel", "b8_kernel", "--grid",
                           "1", "--block", "3", "--arg", "b8[3]:iota", "--arg", "b8[3]:zeros",
                           "--arg", "b8:0", "--json"});
  REQUIRE(b8.exit_code == 0);
  CHECK(json::parse(b8.out)["buffers"][1]["values"] == json::array({0, 1, 0}));
}

TEST_CASE("-I and -D on warpsim run; a bad spec exits 2 naming the --arg") {
  const auto ok = run_cli({"run", kKernels + "compile_options.cu", "--kernel", "scaled", "--grid", "1",
                           "--block", "4", "--arg", "i32[4]:zeros", "-I", kKernels + "include_dir",
                           "-D", "OFFSET=5", "--json"});
  INFO(ok.out << ok.err);
  REQUIRE(ok.exit_code == 0);
  CHECK(json::parse(ok.out)["buffers"][0]["values"] == json::array({5, 15, 25, 35}));

  const auto bad = run_cli({"run", kKernels + "element_types.cu", "--kernel", "u8_kernel", "--grid",
                            "1", "--block", "4", "--arg", "u8[4]:iota", "--arg", "u8[4]:zeros",
                            "--arg", "u8:256"});
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "--arg 3 'u8:256': '256' is out of range for u8 (0..255)"));

  // --gpu takes -I and -D too: both runs agree, or, without a device, exit 3 saying only that.
  const auto gpu = run_cli({"run", kKernels + "compile_options.cu", "--kernel", "scaled", "--grid",
                            "1", "--block", "4", "--arg", "i32[4]:zeros", "-I",
                            kKernels + "include_dir", "-D", "OFFSET=5", "--gpu"});
  INFO(gpu.out << gpu.err);
  if (gpu.exit_code == 3) {
    CHECK(contains(gpu.err, "--gpu: no CUDA device"));
    CHECK_FALSE(contains(gpu.err, "-I or -D"));
  } else {
    CHECK(gpu.exit_code == 0);
    CHECK(contains(gpu.out, "arg 0  i32[4]  [5, 15, 25, 35]"));
    CHECK(contains(gpu.out, "buffer arg 0 (i32[4]): identical"));
  }
}
