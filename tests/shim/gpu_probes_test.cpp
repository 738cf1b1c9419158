// The GPU probes (tests/shim/gpu_probes) under `warpsim exec`, against what an H200 did with the
// same programs (docs/gpu-runs):
// - the mask probes (caller-not-in-mask.txt and per-lane-masks.txt, recorded by
//   tests/shim/record_mask_probes.sh): where the GPU completed, the simulator prints the same lane
//   results and names the misuse (exit status 123); where the GPU trapped, the simulator does not
//   complete silently either;
// - the copy ranges (copy-ranges.txt, tests/shim/record_api_probes.sh): every copy, memset and
//   free returns what the GPU's runtime returned, and each refused one is named in exec's report
//   (a finding under --check).
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_warpsim.hpp"
#include "support/scratch_dir.hpp"

namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

warpsim::test::ProcessOutcome exec_probe(const std::string& probe,
                                         const std::vector<std::string>& args,
                                         const std::vector<std::string>& options = {}) {
  std::vector<std::string> argv{WARPSIM_CLI_PATH, "exec"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(kSource + "/tests/shim/gpu_probes/" + probe + ".cu");
  argv.push_back("--");
  argv.insert(argv.end(), args.begin(), args.end());
  static const warpsim::test::ScratchDir scratch("warpsim-gpu-probes");
  return warpsim::test::run_process(argv, scratch.path());
}

}  // namespace

TEST_CASE("one mask that leaves callers out: the H200's lane results, and the misuse named") {
  const std::vector<std::string> recorded =
      lines_of(warpsim::test::read_text(kSource + "/docs/gpu-runs/caller-not-in-mask.txt"));
  const std::regex form_line(R"(^(\w+) +m=0x([0-9a-f]{8}): (.*)$)");
  int compared = 0;
  for (const std::string& line : recorded) {
    std::smatch m;
    if (!std::regex_match(line, m, form_line)) continue;
    const std::string form = m[1], mask = m[2], outcome = m[3];
    CAPTURE(line);
    const auto run = exec_probe("caller_not_in_mask", {form, mask});
    CAPTURE(run.err);
    if (outcome.rfind("no error", 0) == 0) {
      CHECK(run.out == line + "\n");
      // Only a run-time mask of every lane names every caller.
      const bool well_defined = form.find("_arg") != std::string::npos && mask == "ffffffff";
      CHECK(run.exit_code == (well_defined ? 0 : 123));
      CHECK((run.err.find("caller_not_in_mask at ") != std::string::npos) == !well_defined);
    } else {
      CHECK(run.exit_code != 0);  // the GPU trapped: no silent completion here either
    }
    ++compared;
  }
  CHECK(compared >= 40);
}

TEST_CASE("a mask of each lane's own: the H200's lane results where it completed, a stop or a "
          "named misuse where it trapped") {
  const std::vector<std::string> recorded =
      lines_of(warpsim::test::read_text(kSource + "/docs/gpu-runs/per-lane-masks.txt"));
  const std::regex form_line(R"(^(mask = .*): (.*)$)");
  int form = 0;
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(recorded[i], m, form_line)) continue;
    CAPTURE(recorded[i]);
    const auto run = exec_probe("per_lane_masks", {std::to_string(form++)});
    CAPTURE(run.err);
    const bool control = recorded[i].find("(well defined)") != std::string::npos;
    CHECK(run.exit_code == (control ? 0 : 123));
    if (m[2] == "no error") {
      std::string expected = recorded[i] + "\n";
      for (std::size_t j = i + 1; j < recorded.size() && recorded[j].rfind("  lane", 0) == 0; ++j) {
        expected += recorded[j] + "\n";
      }
      CHECK(run.out.find(expected) != std::string::npos);
    }
  }
  CHECK(form == 7);
}

TEST_CASE("copies, memsets and frees naming memory that is not device memory: the H200's "
          "errors, each refusal named") {
  const std::vector<std::string> recorded =
      lines_of(warpsim::test::read_text(kSource + "/docs/gpu-runs/copy-ranges.txt"));
  const std::regex form_line(R"(^(\w+): returned (\w+) \(\d+\); then .*$)");
  int compared = 0, refused = 0;
  for (const std::string& line : recorded) {
    std::smatch m;
    if (!std::regex_match(line, m, form_line)) continue;
    const std::string form = m[1];
    const bool gpu_refused = m[2] != "cudaSuccess";
    CAPTURE(line);
    const auto run = exec_probe("copy_ranges", {form});
    CAPTURE(run.err);
    CHECK(run.out.find(line + "\n") != std::string::npos);
    CHECK(run.exit_code == 0);
    CHECK((run.err.find("copy_ranges.cu:") != std::string::npos &&
           run.err.find("returned cudaErrorInvalidValue: the ") != std::string::npos) ==
          gpu_refused);
    if (gpu_refused && refused++ == 0) {  // under --check, a finding (once: the same path)
      const auto checked = exec_probe("copy_ranges", {form}, {"--check", "bounds"});
      CHECK(checked.exit_code == 122);
    }
    ++compared;
  }
  CHECK(compared >= 22);
  CHECK(refused >= 18);
}
