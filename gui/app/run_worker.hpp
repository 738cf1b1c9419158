// The worker thread that runs kernel files and grades exercises: a run compiles (or finds the
// cached kernel) and forks a child, a grading makes dozens of runs, so neither happens on the
// thread that draws. One job at a time; the app asks for the next when the last has come back
// (Model::wanted holds only the newest request meanwhile). A grading's cases are reported as
// they finish (course::GradeOptions::on_case), for its progress.
#pragma once

#include <memory>
#include <optional>

#include "model/app_model.hpp"

namespace warpsim::gui {

class RunWorker {
 public:
  // `live`: how a request's launch runs on a GPU (--gpu); may be empty.
  explicit RunWorker(LiveGpu live = {});
  RunWorker(const RunWorker&) = delete;
  RunWorker& operator=(const RunWorker&) = delete;
  // Waits for a run in progress only if it is the last thing to do: at exit a run still going
  // (a slow compile, a hung kernel before its timeout) is left to end with the process.
  ~RunWorker();

  bool busy() const;
  // Precondition: !busy().
  void start(std::uint64_t generation, RunRequest request);
  // The finished run, once.
  std::optional<LoadedRun> take();

  // Precondition: !busy().
  void start_grading(GradingJob job);
  // The finished grading, once.
  std::optional<Graded> take_grading();
  // The cases of the grading in progress graded so far.
  std::vector<course::CaseResult> grading_progress() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace warpsim::gui
