// `warpsim exercises --verify DIR`: an exercise (or every exercise of a folder of lessons) checked
// as the repository's tests check its own, without CTest: the reference passes, the starter does
// not, each wrong/ file fails where and as exercise.json says, each right/ file passes.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "warpsim/grading.hpp"

namespace warpsim::cli {

int exercises_verify(const std::string& dir, std::optional<std::uint64_t> seed, bool as_json) {
  namespace fs = std::filesystem;
  using json = nlohmann::ordered_json;
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    return usage_error("exercises", "--verify " + dir + ": no such folder");
  }
  course::ExerciseCatalogue catalogue = course::load_exercises(std::vector<fs::path>{dir});
  for (const Error& problem : catalogue.problems) {
    std::cerr << "warpsim exercises: " << problem.message << "\n";
  }
  if (catalogue.exercises.empty()) {
    if (catalogue.problems.empty()) {
      std::cerr << "warpsim exercises: --verify " << dir
                << ": no exercise there (a folder holding exercise.json, a lesson's folder "
                   "holding exercises/, or a folder of lessons)\n";
    }
    return kExitUsage;
  }
  std::size_t failed = 0, incomplete = 0;
  json report = json::array();
  for (const course::Exercise& e : catalogue.exercises) {
    course::GradeSettings settings;
    settings.seed = seed;
    settings.sandbox = "none";  // the instructor's own files
    auto options = course::grading_options(e, settings);
    if (!options) return usage_error("exercises", options.error().message);
    if (!as_json) {
      std::cout << e.id << " (" << e.dir.string() << "), seed " << options->seed << "\n"
                << std::flush;
    }
    json entry{{"exercise", e.id}, {"dir", e.dir.string()}, {"seed", options->seed}};
    json checks = json::array();
    std::size_t ok = 0;
    for (const course::ExerciseCheck& c : course::verify_exercise(e, *options)) {
      ok += c.ok ? 1 : 0;
      failed += !c.ok && !c.incomplete ? 1 : 0;
      incomplete += c.incomplete ? 1 : 0;
      checks.push_back({{"file", c.file}, {"check", c.what}, {"ok", c.ok},
                        {"incomplete", c.incomplete}, {"detail", c.detail}});
      if (as_json) continue;
      std::cout << (c.ok ? "  ok          " : c.incomplete ? "  INCOMPLETE  " : "  FAIL        ")
                << c.file << ": " << c.what << "\n";
      if (!c.ok) std::cout << "              " << c.detail << "\n";
      std::cout << std::flush;
    }
    if (!as_json) {
      std::cout << e.id << ": " << ok << " of " << checks.size() << " checks pass\n\n";
    }
    entry["checks"] = std::move(checks);
    report.push_back(std::move(entry));
  }
  if (as_json) std::cout << report.dump() << "\n";
  if (failed > 0 || !catalogue.problems.empty()) return 1;
  return incomplete > 0 ? course::exit_status(course::GradeStatus::incomplete) : 0;
}

}  // namespace warpsim::cli
