#include "run_worker.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <variant>

namespace warpsim::gui {

struct RunWorker::State {
  using Job = std::variant<std::pair<std::uint64_t, RunRequest>, GradingJob>;
  std::mutex mutex;
  std::condition_variable wake;
  std::optional<Job> job;
  std::optional<LoadedRun> done;
  std::optional<Graded> graded;
  std::vector<course::CaseResult> progress;
  bool busy = false;
  bool stop = false;
  std::thread thread;
};

RunWorker::RunWorker(LiveGpu live) : state_(std::make_shared<State>()) {
  // The thread holds the state too, so that it may outlive the worker at exit.
  state_->thread = std::thread([s = state_, live = std::move(live)] {
    std::unique_lock lock(s->mutex);
    while (true) {
      s->wake.wait(lock, [&] { return s->stop || s->job.has_value(); });
      if (s->stop) return;
      State::Job job = std::move(*s->job);
      s->job.reset();
      lock.unlock();
      if (auto* run_job = std::get_if<0>(&job)) {
        LoadedRun run = run_and_load(run_job->first, run_job->second, live);
        lock.lock();
        s->done = std::move(run);
      } else {
        Graded graded = run_grading(std::get<1>(job), [&s](const course::CaseResult& c) {
          std::lock_guard progress_lock(s->mutex);
          s->progress.push_back(c);
        });
        lock.lock();
        s->graded = std::move(graded);
        s->progress.clear();
      }
      s->busy = false;
    }
  });
}

RunWorker::~RunWorker() {
  std::unique_lock lock(state_->mutex);
  state_->stop = true;
  const bool running = state_->busy;
  lock.unlock();
  state_->wake.notify_all();
  if (running) {
    state_->thread.detach();
  } else {
    state_->thread.join();
  }
}

bool RunWorker::busy() const {
  std::lock_guard lock(state_->mutex);
  return state_->busy || state_->done.has_value() || state_->graded.has_value();
}

void RunWorker::start(std::uint64_t generation, RunRequest request) {
  {
    std::lock_guard lock(state_->mutex);
    state_->job.emplace(std::in_place_index<0>, generation, std::move(request));
    state_->busy = true;
  }
  state_->wake.notify_all();
}

std::optional<LoadedRun> RunWorker::take() {
  std::lock_guard lock(state_->mutex);
  std::optional<LoadedRun> done = std::move(state_->done);
  state_->done.reset();
  return done;
}

void RunWorker::start_grading(GradingJob job) {
  {
    std::lock_guard lock(state_->mutex);
    state_->job.emplace(std::in_place_index<1>, std::move(job));
    state_->progress.clear();
    state_->busy = true;
  }
  state_->wake.notify_all();
}

std::optional<Graded> RunWorker::take_grading() {
  std::lock_guard lock(state_->mutex);
  std::optional<Graded> graded = std::move(state_->graded);
  state_->graded.reset();
  return graded;
}

std::vector<course::CaseResult> RunWorker::grading_progress() const {
  std::lock_guard lock(state_->mutex);
  return state_->progress;
}

}  // namespace warpsim::gui
