// `warpsim run` end to end with a struct passed by value: the text and JSON reports name a buffer
// field's buffer, a bad struct spec or a mismatch exits 2 with one line naming the field.
#include <doctest/doctest.h>

#include "support/run_warpsim.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

const std::string kFile = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/struct_args.cu";

warpsim::test::ProcessOutcome run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv{WARPSIM_CLI_PATH, "run", kFile, "--grid", "1", "--block", "4"};
  argv.insert(argv.end(), args.begin(), args.end());
  return warpsim::test::run_process(
      argv, std::filesystem::path(WARPSIM_BINARY_DIR) / "tests" / "cli" / "struct-args-scratch");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a struct argument's buffer field is reported as 'arg N field F' and in --json") {
  const std::vector<std::string> args{"--kernel", "scale_by_params", "--arg",
                                      "{i32:3; f32:0.5; f32[4]:2,4,6,8}", "--arg", "f32[4]:zeros"};
  const auto text = run_cli(args);
  INFO(text.out << text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(contains(text.out, "  arg 0 field 2  f32[4]  [2, 4, 6, 8]\n"));
  CHECK(contains(text.out, "  arg 1  f32[4]  [1, 2, 3, 0]\n"));

  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  const auto j = run_cli(with_json);
  INFO(j.out << j.err);
  REQUIRE(j.exit_code == 0);
  const json report = json::parse(j.out);
  REQUIRE(report["buffers"].size() == 2);
  CHECK(report["buffers"][0] == json::parse(R"({"arg":0,"field":2,"type":"f32","values":[2.0,4.0,6.0,8.0]})"));
  CHECK_FALSE(report["buffers"][1].contains("field"));
  CHECK(report["buffers"][1]["values"] == json::parse("[1.0,2.0,3.0,0.0]"));
}

TEST_CASE("bad struct specs and mismatched structs exit 2 with one line naming the field") {
  const auto bad = run_cli({"--kernel", "scale_by_params", "--arg", "{i32:3; f32:0.5; f32[4]:1,2}",
                            "--arg", "f32[4]:zeros"});
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "--arg 1 '{i32:3; f32:0.5; f32[4]:1,2}': field 2 of the struct: the list "
                          "has 2 values; the buffer has 4 elements"));

  const auto wrong = run_cli({"--kernel", "scale_by_params", "--arg", "{i32:3; f32:0.5; i64:1}",
                              "--arg", "f32[4]:zeros"});
  CHECK(wrong.exit_code == 2);
  CHECK(contains(wrong.err, "parameter 0 of 'scale_by_params' (--arg 1): field 2 of 'Params' is "
                            "'const float*' but the argument gives i64"));
}
