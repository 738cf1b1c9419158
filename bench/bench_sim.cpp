// Prints the simulator's speed figures against the targets of the core issue:
//   butterfly (1 warp, full trace) <= 50 us; >= 2 M traced steps/s on one core;
//   grid-stride sum of 16M floats (1056 x 256 threads) <= 1 s.
#include <chrono>
#include <cstdio>
#include <numeric>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "bench_kernels.cuh"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

warpsim::LaunchOptions shape(unsigned grid, unsigned block) {
  warpsim::LaunchOptions o;
  o.grid = {grid};
  o.block = {block};
  return o;
}

void butterfly() {
  std::vector<float> in(32), out(32);
  std::iota(in.begin(), in.end(), 0.0f);
  const auto options = shape(1, 32);
  warpsim::launch(options, [&] { bench_butterfly(in.data(), out.data()); });  // warm the stack pool
  const int runs = 20000;
  std::size_t steps = 0;
  const auto start = Clock::now();
  for (int i = 0; i < runs; ++i) {
    steps += warpsim::launch(options, [&] { bench_butterfly(in.data(), out.data()); }).trace.steps.size();
  }
  const double us = seconds_since(start) / runs * 1e6;
  std::printf("butterfly, 1 warp, 5 traced steps:      %8.2f us per launch   (target <= 50 us)  [%zu steps]\n",
              us, steps / runs);
}

void step_rate(unsigned block, bool record) {
  const int rounds = 20000;
  std::vector<int> out(block);
  auto options = shape(1, block);
  options.record_steps = record;
  const auto start = Clock::now();
  const auto r = warpsim::launch(options, [&] { bench_shuffle_chain(rounds, out.data()); });
  const double s = seconds_since(start);
  std::printf("shuffle chain, %4u threads, trace %-3s: %8.2f M steps/s      (target >= 2 M/s)  [%llu steps, %.3f s]\n",
              block, record ? "on" : "off", static_cast<double>(r.steps) / s / 1e6,
              static_cast<unsigned long long>(r.steps), s);
}

void grid_sum() {
  const int n = 16 * 1024 * 1024;
  std::vector<float> in(n, 1.0f);
  float out = 0.0f;
  const auto start = Clock::now();
  const auto r = warpsim::launch(shape(1056, 256), [&] { bench_grid_sum(in.data(), n, &out); });
  const double s = seconds_since(start);
  std::printf("grid-stride sum, 16M floats, 1056x256:  %8.3f s               (target <= 1 s)    [%llu steps, sum %.0f, %s]\n",
              s, static_cast<unsigned long long>(r.steps), static_cast<double>(out),
              r.status == warpsim::LaunchStatus::completed ? "completed" : r.message.c_str());
}

}  // namespace

int main() {
  std::printf("warpsim simulator benchmark (one core)\n");
  butterfly();
  step_rate(32, true);
  step_rate(256, true);
  step_rate(256, false);
  grid_sum();
  return 0;
}
