#include "run_worker.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace warpsim::gui {

struct RunWorker::State {
  std::mutex mutex;
  std::condition_variable wake;
  std::optional<std::pair<std::uint64_t, RunRequest>> job;
  std::optional<LoadedRun> done;
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
      auto [generation, request] = std::move(*s->job);
      s->job.reset();
      lock.unlock();
      LoadedRun run = run_and_load(generation, request, live);
      lock.lock();
      s->done = std::move(run);
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
  return state_->busy || state_->done.has_value();
}

void RunWorker::start(std::uint64_t generation, RunRequest request) {
  {
    std::lock_guard lock(state_->mutex);
    state_->job.emplace(generation, std::move(request));
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

}  // namespace warpsim::gui
