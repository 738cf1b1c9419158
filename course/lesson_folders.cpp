// Where lessons and exercises come from: the repository's (or the installed) lessons folder, then
// an instructor's own folders ($WARPSIM_LESSONS, --lessons DIR), loaded into one catalogue.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "warpsim/course.hpp"
#include "warpsim/grading.hpp"

namespace warpsim::course {
namespace {

namespace fs = std::filesystem;

bool is_dir(const fs::path& p) {
  std::error_code error;
  return fs::is_directory(p, error);
}
bool is_file(const fs::path& p) {
  std::error_code error;
  return fs::is_regular_file(p, error);
}

// The subfolders of `dir` that hold `marker`, sorted.
std::vector<fs::path> subfolders_with(const fs::path& dir, const std::string& marker) {
  std::vector<fs::path> out;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.is_directory() && is_file(entry.path() / marker)) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A root that is missing or no folder: the problem, naming where it was asked for.
std::optional<Error> missing(const fs::path& root) {
  if (is_dir(root)) return std::nullopt;
  return fail(ErrorKind::file, "no lessons folder " + root.string() +
                                   " (given with --lessons or in WARPSIM_LESSONS)");
}

}  // namespace

std::vector<fs::path> lesson_folders(const std::vector<std::string>& extra) {
  std::vector<fs::path> out{default_lessons_dir()};
  const auto add = [&](const std::string& dir) {
    if (dir.empty()) return;
    std::error_code error;
    const fs::path p = fs::absolute(dir, error).lexically_normal();
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  if (const char* env = std::getenv("WARPSIM_LESSONS")) {
    std::string list = env;
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t colon = std::min(list.find(':', start), list.size());
      add(list.substr(start, colon - start));
      start = colon + 1;
    }
  }
  for (const std::string& dir : extra) add(dir);
  return out;
}

Catalogue load_catalogue(const std::vector<fs::path>& roots) {
  Catalogue catalogue;
  for (const fs::path& root : roots) {
    if (auto problem = missing(root)) {
      catalogue.problems.push_back(std::move(*problem));
      continue;
    }
    // A lesson folder itself, or a folder of them.
    const std::vector<fs::path> folders =
        is_file(root / "lesson.json") ? std::vector<fs::path>{root} : subfolders_with(root, "lesson.json");
    for (const fs::path& folder : folders) {
      auto lesson = load_lesson(folder);
      if (!lesson) {
        catalogue.problems.push_back(lesson.error());
      } else if (const Lesson* other = find_lesson(catalogue, lesson->id)) {
        catalogue.problems.push_back(fail(folder.string() + ": another lesson is named " +
                                          lesson->id + " (" + other->dir.string() + ")"));
      } else {
        catalogue.lessons.push_back(std::move(*lesson));
      }
    }
  }
  return catalogue;
}

ExerciseCatalogue load_exercises(const std::vector<fs::path>& roots) {
  ExerciseCatalogue catalogue;
  for (const fs::path& root : roots) {
    if (auto problem = missing(root)) {
      catalogue.problems.push_back(std::move(*problem));
      continue;
    }
    // An exercise folder itself, a lesson folder (its exercises/), or a folder of lessons.
    std::vector<fs::path> folders;
    if (is_file(root / "exercise.json")) {
      folders.push_back(root);
    } else if (is_dir(root / "exercises")) {
      folders = subfolders_with(root / "exercises", "exercise.json");
    } else {
      std::error_code error;
      std::vector<fs::path> lessons;
      for (const auto& entry : fs::directory_iterator(root, error)) {
        if (entry.is_directory() && is_dir(entry.path() / "exercises")) lessons.push_back(entry.path());
      }
      std::sort(lessons.begin(), lessons.end());
      for (const fs::path& lesson : lessons) {
        for (fs::path& f : subfolders_with(lesson / "exercises", "exercise.json")) folders.push_back(std::move(f));
      }
      if (error) {
        catalogue.problems.push_back(
            fail(ErrorKind::file, "cannot read " + root.string() + ": " + error.message()));
      }
    }
    for (const fs::path& folder : folders) {
      auto exercise = load_exercise(folder);
      if (!exercise) {
        catalogue.problems.push_back(exercise.error());
      } else if (const Exercise* other = find_exercise(catalogue, exercise->id)) {
        catalogue.problems.push_back(fail(folder.string() + ": another exercise is named " +
                                          exercise->id + " (" + other->dir.string() + ")"));
      } else {
        catalogue.exercises.push_back(std::move(*exercise));
      }
    }
  }
  return catalogue;
}

}  // namespace warpsim::course
