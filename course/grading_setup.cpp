// How a grading of students' work is set up, one way for `warpsim grade` and the GUI's Grade:
// the exercise's fixed seed unless another is asked for, and the strongest sandbox the machine
// can make unless another is asked for.
#include <filesystem>

#include "warpsim/grading.hpp"
#include "warpsim/sandbox.hpp"

namespace warpsim::course {

Expected<runner::Sandbox> grading_sandbox(std::string_view mode,
                                          const std::vector<std::string>& private_files) {
  runner::Sandbox box;
  if (mode == "none") return box;
  const runner::IsolationProbe probe = runner::probe_isolation();
  runner::Isolation wanted = probe.isolation;
  if (mode == "bwrap") {
    wanted = runner::Isolation::bwrap;
  } else if (mode == "namespaces") {
    wanted = runner::Isolation::namespaces;
  } else if (mode == "limits") {
    wanted = runner::Isolation::limits;
  } else if (mode != "auto") {
    return fail("--sandbox '" + std::string(mode) +
                "': give auto, bwrap, namespaces, limits or none");
  }
  if (wanted > probe.isolation) {
    return fail("--sandbox " + std::string(mode) + " cannot be made on this machine: " +
                probe.note + " (--sandbox auto takes the strongest there is, and says which)");
  }
  box.isolation = wanted;
  box.bwrap = probe.bwrap;
  box.syscall_filter = probe.syscall_filter;
  // What the grading writes is none of a submission's business, nor are earlier gradings.
  for (const std::string& file : private_files) {
    std::error_code error;
    if (!file.empty()) box.hidden.push_back(std::filesystem::absolute(file, error).string());
  }
  return box;
}

Expected<GradeOptions> grading_options(const Exercise& exercise, const GradeSettings& settings) {
  auto sandbox = grading_sandbox(settings.sandbox, settings.private_files);
  if (!sandbox) return sandbox.error();
  GradeOptions options;
  options.seed = settings.seed ? *settings.seed : default_seed(exercise);
  options.sandbox = std::move(*sandbox);
  options.budget_seconds = settings.budget_seconds;
  options.time_limit_seconds = settings.time_limit_seconds;
  return options;
}

}  // namespace warpsim::course
