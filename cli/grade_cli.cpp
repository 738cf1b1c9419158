// `warpsim grade EXERCISE FILE.cu` (a student's submission), `warpsim grade EXERCISE DIR/` (a
// class's), `warpsim grade EXERCISE --hint N`, and `warpsim exercises [ID]`.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>
#include <string>

#include "commands.hpp"
#include "gpu_hooks.hpp"
#include "grade_report.hpp"
#include "warpsim/course.hpp"
#include "warpsim/grading.hpp"
#include "warpsim/sandbox.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

struct GradeFlags {
  std::string exercise;
  std::string target;  // a submission file, or a folder of submissions
  bool json = false;
  std::string junit;
  std::optional<std::uint64_t> seed;
  std::size_t hint = 0;
  std::string csv;
  std::string scores;
  std::string report;
  std::string sandbox = "auto";
  double budget = 60;
  std::optional<double> time_limit;
  bool no_gpu = false;
  std::size_t jobs = 0;
};

// Beside the per-case CSV: "grades.csv" -> "grades-scores.csv".
std::string scores_file(const GradeFlags& flags) {
  if (!flags.scores.empty() || flags.csv.empty()) return flags.scores;
  const fs::path csv(flags.csv);
  return (csv.parent_path() / (csv.stem().string() + "-scores.csv")).string();
}

// The options of `warpsim grade`: course::grading_options (the GUI's too), and the GPU.
Expected<course::GradeOptions> options_of(const course::Exercise& exercise,
                                          const GradeFlags& flags) {
  course::GradeSettings settings;
  settings.seed = flags.seed;
  settings.sandbox = flags.sandbox;
  settings.budget_seconds = flags.budget;
  settings.time_limit_seconds = flags.time_limit;
  settings.private_files = {flags.csv, scores_file(flags), flags.report, flags.junit};
  auto options = course::grading_options(exercise, settings);
  if (!options) return options;
  options->jobs = flags.jobs;
  // On a machine with a CUDA device, every case that passes in the simulator runs there too.
  if (!flags.no_gpu && probe_gpu()) {
    options->gpu = [](const runner::KernelFileRequest& request,
                      const runner::KernelFileResult& sim) {
      GpuRunFlags gpu;
      gpu.trace_blocks = 0;  // outputs only
      return run_on_gpu(request, sim, gpu);
    };
  }
  return options;
}

bool color_wanted() { return isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr; }

// The exercise an argument names: an id of the catalogue or an exercise folder's path.
Expected<course::Exercise> find(const std::string& id) {
  if (fs::exists(fs::path(id) / "exercise.json")) return course::load_exercise(id);
  const course::ExerciseCatalogue catalogue = course::load_exercises(course::lesson_folders());
  if (const course::Exercise* exercise = course::find_exercise(catalogue, id)) return *exercise;
  for (const Error& problem : catalogue.problems) {
    if (problem.message.find("/" + id + "/") != std::string::npos) return problem;
  }
  std::string known;
  for (const course::Exercise& e : catalogue.exercises) known += (known.empty() ? "" : ", ") + e.id;
  return fail("no exercise '" + id + "'; exercises: " +
              (known.empty() ? "none found in " + course::default_lessons_dir().string() : known));
}

// How a rerun command names `exercise`, given on the command line as `typed`: a folder as typed;
// an id as typed when it is one of the repository's, else the folder it was found in (through
// --lessons, which a rerun would not repeat).
std::string named_as(const std::string& typed, const course::Exercise& exercise) {
  if (fs::exists(fs::path(typed) / "exercise.json")) return typed;
  std::error_code error;
  const fs::path own = fs::weakly_canonical(course::default_lessons_dir(), error);
  const fs::path dir = fs::weakly_canonical(exercise.dir, error);
  const bool own_lesson = std::mismatch(own.begin(), own.end(), dir.begin(), dir.end()).first == own.end();
  return own_lesson ? typed : exercise.dir.string();
}

bool write_file(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::fprintf(stderr, "warpsim grade: cannot write %s %s\n", what, path.c_str());
    return false;
  }
  return true;
}

int hints(const course::Exercise& exercise, std::size_t n) {
  if (exercise.hints.empty()) {
    std::cout << exercise.id << " has no hints\n";
    return 0;
  }
  const std::vector<std::string> unlocked = course::hints_up_to(exercise, n);
  for (std::size_t k = 0; k < unlocked.size(); ++k) {
    std::cout << "Hint " << k + 1 << " of " << exercise.hints.size() << ": " << unlocked[k]
              << "\n\n";
  }
  if (n < exercise.hints.size()) {
    std::cout << "(warpsim grade " << exercise.id << " --hint " << n + 1 << " unlocks the next)\n";
  } else if (n > exercise.hints.size()) {
    std::cout << "(that is every hint: " << exercise.id << " has " << exercise.hints.size()
              << ")\n";
  }
  return 0;
}

int grade_one(const course::Exercise& exercise, const GradeFlags& flags,
              const course::GradeOptions& options) {
  course::GradeResult result = course::grade(exercise, flags.target, options);
  result.exercise_named_as = named_as(flags.exercise, exercise);
  if (flags.json) {
    std::cout << grade_json(exercise, result).dump() << "\n";
  } else {
    write_grade_text(std::cout, exercise, result, TextStyle{color_wanted()});
  }
  if (!flags.junit.empty()) {
    std::ostringstream xml;
    write_junit(xml, exercise, result);
    if (!write_file(flags.junit, xml.str(), "the JUnit report")) return kExitUsage;
  }
  const int status = course::exit_status(result.status);
  if (status == 2 && flags.json) std::fprintf(stderr, "warpsim grade: %s\n", result.message.c_str());
  return status;
}

int grade_folder(const course::Exercise& exercise, const GradeFlags& flags,
                 const course::GradeOptions& given) {
  const std::uint64_t seed = given.seed;
  const std::vector<course::Submission> submissions = course::find_submissions(flags.target);
  if (submissions.empty())
    return usage_error(
        "grade", "no submissions in " + flags.target + " (*.cu files, or one folder per student)");
  course::ReferenceRuns references;  // the reference runs once per case for the whole class
  course::GradeOptions options = given;
  options.references = &references;
  if (!flags.json) {
    std::cout << "sandbox: " << runner::describe(options.sandbox) << "\n"
              << submissions.size() << " submissions, "
              << course::class_jobs(options, submissions.size()) << " graded at once\n"
              << std::flush;
  }
  // Each student's line in the class's order, as soon as it and those before it are graded.
  std::vector<std::optional<std::string>> lines(submissions.size());
  std::size_t printed = 0;
  const auto on_graded = [&](std::size_t index, const course::StudentGrade& g) {
    if (flags.json) return;
    const course::GradeResult& r = g.result;
    std::ostringstream line;
    line << (r.passed()                                    ? "ok    "
             : r.status == course::GradeStatus::failed     ? "FAIL  "
             : r.status == course::GradeStatus::incomplete ? "INCOMPLETE "
                                                           : "ERROR ")
         << g.submission.student << ": ";
    if (r.cases.empty()) {
      line << r.message;
    } else {
      line << r.cases_passed() << " of " << r.cases.size() << " cases";
      if (r.cases_incomplete() > 0) line << " (" << r.cases_incomplete() << " not run)";
      for (const course::CaseResult& c : r.cases) {
        if (c.failed()) {
          line << "; first failing " << c.name << ": " << c.headline;
          break;
        }
      }
    }
    lines[index] = line.str();
    while (printed < lines.size() && lines[printed]) std::cout << *lines[printed++] << "\n";
    std::cout << std::flush;
  };
  std::vector<course::StudentGrade> grades =
      course::grade_class(exercise, submissions, options, on_graded);
  for (course::StudentGrade& g : grades) g.result.exercise_named_as = named_as(flags.exercise, exercise);
  if (flags.json) {
    json out = json::array();
    for (const course::StudentGrade& g : grades) {
      json entry = grade_json(exercise, g.result);
      entry["student"] = g.submission.student;
      out.push_back(std::move(entry));
    }
    std::cout << out.dump() << "\n";
  }
  if (!flags.csv.empty()) {
    std::ostringstream csv;
    write_class_csv(csv, grades);
    if (!write_file(flags.csv, csv.str(), "the CSV")) return kExitUsage;
  }
  if (const std::string scores = scores_file(flags); !scores.empty()) {
    std::ostringstream csv;
    write_class_scores(csv, grades);
    if (!write_file(scores, csv.str(), "the scores")) return kExitUsage;
  }
  if (!flags.junit.empty()) {
    std::ostringstream xml;
    write_class_junit(xml, exercise, grades);
    if (!write_file(flags.junit, xml.str(), "the JUnit report")) return kExitUsage;
  }
  if (!flags.report.empty()) {
    std::ostringstream md;
    write_class_markdown(md, exercise, grades, seed);
    if (!write_file(flags.report, md.str(), "the report")) return kExitUsage;
  }
  std::size_t passed = 0, incomplete = 0;
  bool unfinished = false;  // a submission that failed nothing, with cases left to run
  double budget = 0;
  for (const course::StudentGrade& g : grades) {
    passed += g.result.passed() ? 1 : 0;
    incomplete += g.result.cases_incomplete() > 0 ? 1 : 0;
    unfinished |= g.result.status == course::GradeStatus::incomplete;
    budget = std::max(budget, rerun_budget(g.result));
  }
  if (!flags.json) {
    std::cout << "\n"
              << passed << " of " << grades.size() << " submissions pass every case (seed " << seed
              << ")\n";
    if (incomplete > 0) {
      std::cout << incomplete << (incomplete == 1 ? " submission has" : " submissions have")
                << " cases that did not run (incomplete, not failed)";
      if (budget > 0) {
        std::cout << "; rerun with a larger budget: warpsim grade "
                  << named_as(flags.exercise, exercise) << " "
                  << flags.target << " --seed " << seed << " --budget "
                  << static_cast<long long>(budget);
      }
      std::cout << "\n";
    }
  }
  // Grading a class succeeded; 3 tells a script that some submission's grade is not known yet.
  return unfinished ? course::exit_status(course::GradeStatus::incomplete) : 0;
}

int grade_command(const GradeFlags& flags) {
  auto exercise = find(flags.exercise);
  if (!exercise) return usage_error("grade", exercise.error().message);
  if (flags.hint > 0) return hints(*exercise, flags.hint);
  if (flags.target.empty()) {
    return usage_error("grade", "which submission? warpsim grade " + exercise->id +
                                    " FILE.cu (or a folder of them)");
  }
  std::error_code error;
  if (!fs::exists(flags.target, error)) return usage_error("grade", "no file " + flags.target);
  const bool folder = fs::is_directory(flags.target, error);
  if (!folder && (!flags.csv.empty() || !flags.report.empty() || !flags.scores.empty())) {
    return usage_error("grade", "--csv, --scores and --report grade a folder of submissions; " +
                                    flags.target + " is a file");
  }
  const auto options = options_of(*exercise, flags);
  if (!options) return usage_error("grade", options.error().message);
  if (folder) return grade_folder(*exercise, flags, *options);
  return grade_one(*exercise, flags, *options);
}

int exercises_command(const std::string& id, bool as_json) {
  if (!id.empty()) {
    auto exercise = find(id);
    if (!exercise) return usage_error("exercises", exercise.error().message);
    if (as_json) {
      std::cout << exercise_json(*exercise).dump() << "\n";
      return 0;
    }
    auto statement = runner::read_text_file(exercise->statement_file().string());
    std::cout << (statement ? *statement : exercise->contract + "\n")
              << "\nStarter: " << exercise->starter_file().string()
              << "\nHints: " << exercise->hints.size() << " (warpsim grade " << exercise->id
              << " --hint 1)\n";
    return 0;
  }
  const course::ExerciseCatalogue catalogue = course::load_exercises(course::lesson_folders());
  for (const Error& problem : catalogue.problems)
    std::cerr << "warpsim exercises: " << problem.message << "\n";
  json list = json::array();
  for (const course::Exercise& e : catalogue.exercises) {
    list.push_back(exercise_json(e));
    if (!as_json) {
      std::cout << e.id << "  " << e.title << "  (lesson " << e.lesson << ")\n    " << e.summary
                << "\n    " << e.signature << "\n";
    }
  }
  if (as_json) std::cout << list.dump() << "\n";
  return catalogue.problems.empty() ? 0 : 1;
}

// A file the grading writes: not a folder, in a folder that exists; checked before grading, so
// that a class is not graded for nothing.
CLI::Validator output_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        std::error_code error;
        if (std::filesystem::is_directory(path, error)) return path + " is a folder: give a file";
        const std::filesystem::path folder = std::filesystem::path(path).parent_path();
        if (!folder.empty() && !std::filesystem::is_directory(folder, error)) {
          return "no folder " + folder.string() + " to write " + path + " in";
        }
        return {};
      },
      "FILE");
}

}  // namespace

CommandRun add_grade_command(CLI::App& app) {
  auto f = std::make_shared<GradeFlags>();
  CLI::App* sub = app.add_subcommand(
      "grade",
      "grade a submission of an exercise in the simulator (exit 0 only when every case passes)");
  sub->add_option("exercise", f->exercise,
                  "the exercise: an id (warpsim exercises lists them) or its folder")
      ->required();
  sub->add_option("submission", f->target,
                  "the student's .cu file, or a folder of submissions (one .cu or folder each)");
  sub->add_flag("--json", f->json, "the grading as JSON");
  add_lessons_option(*sub);
  sub->add_flag("--no-gpu", f->no_gpu,
                "simulator only, even where a CUDA device is present (by default every case that "
                "passes in the simulator also runs on the GPU there)");
  sub->add_option("--junit", f->junit,
                  "also write the grading as JUnit XML to this file (a folder: one testsuite per "
                  "student, one testcase per case)")
      ->check(output_file());
  sub->add_option("--seed", f->seed,
                  "the seed of the random cases and orders (every output names it; default: the "
                  "exercise's own fixed seed, so that scores are the same from run to run)");
  sub->add_option("--sandbox", f->sandbox,
                  "how submissions are isolated: auto (the strongest this machine allows: bwrap, "
                  "else namespaces, else limits), bwrap, namespaces, limits, or none; the output "
                  "says which was used")
      ->default_str("auto");
  sub->add_option("--hint", f->hint, "show hints 1 to N instead of grading")
      ->check(number_at_least(1));
  sub->add_option("--csv", f->csv,
                  "a folder of submissions: one row per student and case into this CSV file")
      ->check(output_file());
  sub->add_option("--scores", f->scores,
                  "a folder of submissions: one row per student (passed, failed, incomplete, "
                  "score) into this CSV file (default with --csv X.csv: X-scores.csv beside it)")
      ->check(output_file());
  sub->add_option("--report", f->report,
                  "a folder of submissions: a Markdown report into this file")
      ->check(output_file());
  sub->add_option(
         "--time-limit", f->time_limit,
         "seconds one run may take before it counts as a hang (default: the exercise's, 5)")
      ->check(number_above(0));
  sub->add_option("--jobs", f->jobs,
                  "a folder of submissions: how many are graded at once (default: one per core)")
      ->check(number_at_least(1));
  sub->add_option(
         "--budget", f->budget,
         "seconds of grading per submission before the remaining cases are left incomplete "
         "(default 60; exit status 3 when that happened and nothing failed)")
      ->check(number_above(0));
  return [f] { return grade_command(*f); };
}

CommandRun add_exercises_command(CLI::App& app) {
  auto id = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto verify = std::make_shared<std::string>();
  auto seed = std::make_shared<std::optional<std::uint64_t>>();
  CLI::App* sub = app.add_subcommand("exercises", "list the exercises, or show one's statement");
  sub->add_option("id", *id, "an exercise: print its statement");
  sub->add_flag("--json", *as_json, "as JSON");
  sub->add_option("--verify", *verify,
                  "check the exercise in DIR (or every exercise under DIR) as its students will "
                  "meet it: the reference passes, the starter does not, each wrong/ file fails on "
                  "its case with its words, each right/ file passes (exit 0 when all hold)")
      ->type_name("DIR");
  sub->add_option("--seed", *seed, "with --verify: the seed (default: each exercise's own)");
  add_lessons_option(*sub);
  return [id, as_json, verify, seed] {
    if (!verify->empty()) return exercises_verify(*verify, *seed, *as_json);
    return exercises_command(*id, *as_json);
  };
}

}  // namespace warpsim::cli
