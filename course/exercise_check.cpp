// An exercise checked as its students will meet it: the reference passes, the starter fails, each
// wrong variant fails where and as exercise.json says, each right variant passes.
#include <string>

#include "warpsim/grading.hpp"

namespace warpsim::course {
namespace {

// The grading in a line: "failed: 9 of 12 cases pass; first failing block-256: ..."
std::string outcome_text(const GradeResult& r) {
  std::string text(to_string(r.status));
  if (!r.message.empty()) return text + ": " + r.message;
  text += ": " + std::to_string(r.cases_passed()) + " of " + std::to_string(r.cases.size()) +
          " cases pass";
  for (const CaseResult& c : r.cases) {
    if (!c.passed()) return text + "; first not passed, " + c.name + ": " + c.message;
  }
  return text;
}

const CaseResult* case_named(const GradeResult& r, const std::string& name) {
  for (const CaseResult& c : r.cases) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace

std::vector<ExerciseCheck> verify_exercise(const Exercise& e, const GradeOptions& given) {
  ReferenceRuns references;
  GradeOptions options = given;
  options.detail = false;
  if (options.references == nullptr) options.references = &references;
  std::vector<ExerciseCheck> checks;
  const auto relative = [&](const std::filesystem::path& file) {
    return file.lexically_relative(e.dir).string();
  };

  const GradeResult solution = grade(e, e.solution_file(), options);
  checks.push_back({"the reference solution passes", relative(e.solution_file()),
                    solution.passed(), solution.status == GradeStatus::incomplete,
                    outcome_text(solution)});
  const GradeResult starter = grade(e, e.starter_file(), options);
  checks.push_back({"the starter does not pass", relative(e.starter_file()),
                    starter.status == GradeStatus::failed,
                    starter.status == GradeStatus::incomplete, outcome_text(starter)});
  for (const WrongSolution& w : e.wrong) {
    const GradeResult r = grade(e, e.wrong_file(w), options);
    ExerciseCheck check{"fails on case " + w.failing_case + " with \"" + w.message + "\"",
                        relative(e.wrong_file(w)), false, false, outcome_text(r)};
    const CaseResult* c = case_named(r, w.failing_case);
    if (r.status != GradeStatus::failed) {
      check.incomplete = r.status == GradeStatus::incomplete;
      check.detail = "it did not fail: " + outcome_text(r);
    } else if (c == nullptr) {
      check.detail = "there is no case " + w.failing_case + " (\"fails\" in exercise.json)";
    } else if (c->passed() || c->incomplete()) {
      check.incomplete = c->incomplete();
      check.detail = "case " + w.failing_case + " " + (c->passed() ? "passed" : "did not run") +
                     "; " + outcome_text(r);
    } else if (c->message.find(w.message) == std::string::npos) {
      check.detail = "case " + w.failing_case + " failed without the words \"" + w.message +
                     "\" (\"message\" in exercise.json): " + c->message;
    } else {
      check.ok = true;
      check.detail = c->message;
    }
    checks.push_back(std::move(check));
  }
  for (const RightSolution& right : e.right) {
    const GradeResult r = grade(e, e.right_file(right), options);
    checks.push_back({"passes", relative(e.right_file(right)), r.passed(),
                      r.status == GradeStatus::incomplete, outcome_text(r)});
  }
  return checks;
}

}  // namespace warpsim::course
