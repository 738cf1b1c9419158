// Prints the simulator's speed figures against the targets of the core issue:
//   butterfly (1 warp, full trace) <= 50 us; >= 2 M traced steps/s on one core;
//   grid-stride sum of 16M floats (1056 x 256 threads) <= 1 s.
// Usage: bench_sim [NAME...]  runs only the named figures (butterfly, chain32, chain256,
// chain256-untraced, unrolled256, grid-sum); no names: all of them.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
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

// bench_sim_checked (this file built with -fsanitize=thread): the same figures with the race and
// uninitialised-shared-memory checks on, over `data` and the kernels' __shared__ variables.
template <class T>
void check_memory([[maybe_unused]] warpsim::LaunchOptions& o, [[maybe_unused]] T* data,
                  [[maybe_unused]] std::size_t count) {
#if defined(WARPSIM_BENCH_CHECKS)
  o.checks.races = o.checks.uninitialized_shared = true;
  o.checks.memory.push_back({data, count * sizeof(T), "data", sizeof(T), false});
  if (o.checks.memory.size() == 1) {
    for (auto& v : warpsim::shared_variables_of(reinterpret_cast<const void*>(&shape))) {
      o.checks.memory.push_back(std::move(v));
    }
  }
#endif
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
  std::printf("butterfly, 1 warp, 5 traced steps:                  %8.2f us per launch (target <= 50 us)  [%zu steps]\n",
              us, steps / runs);
}

// Rates of one chain launch after another: the first traced launch of the process writes its
// trace into fresh memory; later ones into the blocks that earlier traces gave back (see
// sim/runtime/large_blocks.hpp). The machine is shared and noisy, so repeated figures print
// their median and range.
struct Rates {
  std::vector<double> per_second;
  std::uint64_t steps = 0;
};

using ChainKernel = void (*)(int, int*);

Rates chain_rates(unsigned block, bool record, int launches, ChainKernel kernel) {
  const int rounds = 20000;
  std::vector<int> out(block);
  auto options = shape(1, block);
  options.record_steps = record;
  check_memory(options, out.data(), out.size());
  Rates rates;
  for (int i = 0; i < launches; ++i) {
    const auto start = Clock::now();
    const auto r = warpsim::launch(options, [&] { kernel(rounds, out.data()); });
    rates.per_second.push_back(static_cast<double>(r.steps) / seconds_since(start));
    rates.steps = r.steps;
  }
  return rates;
}

void print_rates(const char* chain, unsigned block, const char* label, Rates rates) {
  std::sort(rates.per_second.begin(), rates.per_second.end());
  const double median = rates.per_second[rates.per_second.size() / 2];
  char range[64] = "";
  if (rates.per_second.size() > 1) {
    std::snprintf(range, sizeof range, ", %zu launches: %.2f-%.2f", rates.per_second.size(),
                  rates.per_second.front() / 1e6, rates.per_second.back() / 1e6);
  }
  const std::string name = std::string(chain) + ",";
  std::printf("%-15s%4u threads, %-26s %5.2f M steps/s (target >= 2 M/s)  [%llu steps%s]\n",
              name.c_str(), block, label, median / 1e6,
              static_cast<unsigned long long>(rates.steps), range);
}

void step_rate(unsigned block, bool record) {
  if (!record) {
    print_rates("shuffle chain", block, "trace off:", chain_rates(block, false, 5, bench_shuffle_chain));
    return;
  }
  print_rates("shuffle chain", block, "trace on, fresh memory:",
              chain_rates(block, true, 1, bench_shuffle_chain));
  print_rates("shuffle chain", block, "trace on, reused memory:",
              chain_rates(block, true, 5, bench_shuffle_chain));
}

void unrolled_rate() {
  print_rates("unrolled chain", 256, "trace on, reused memory:",
              chain_rates(256, true, 5, bench_unrolled_chain));
}

void grid_sum() {
  const int n = 16 * 1024 * 1024;
  std::vector<float> in(n, 1.0f);
  float out = 0.0f;
  auto options = shape(1056, 256);
  check_memory(options, in.data(), in.size());
  check_memory(options, &out, 1);
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  const auto r = warpsim::launch(options, [&] { bench_grid_sum(in.data(), n, &out); });
  const double s = seconds_since(start);
  // CPU time (user + system, faulting memory in included) as well: on a shared machine the wall
  // time also counts the time other processes held the core.
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf("grid-stride sum, 16M floats, 1056x256:              %8.3f s             (target <= 1 s)    [%llu steps, sum %.0f, %.3f s CPU, %s]\n",
              s, static_cast<unsigned long long>(r.steps), static_cast<double>(out), cpu,
              r.status == warpsim::LaunchStatus::completed ? "completed" : r.message.c_str());
}

struct Figure {
  const char* name;
  void (*run)();
};

constexpr Figure kFigures[] = {
    {"butterfly", butterfly},
    {"chain32", [] { step_rate(32, true); }},
    {"chain256", [] { step_rate(256, true); }},
    {"chain256-untraced", [] { step_rate(256, false); }},
    {"unrolled256", unrolled_rate},
    {"grid-sum", grid_sum},
};

}  // namespace

int main(int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    bool known = false;
    for (const Figure& f : kFigures) known = known || std::strcmp(argv[a], f.name) == 0;
    if (!known) {
      std::fprintf(stderr, "bench_sim: unknown figure '%s'; figures:", argv[a]);
      for (const Figure& f : kFigures) std::fprintf(stderr, " %s", f.name);
      std::fprintf(stderr, "\n");
      return 2;
    }
  }
#if defined(WARPSIM_BENCH_CHECKS)
  std::printf("warpsim simulator benchmark (one core), memory checks on (races, uninit)\n");
#else
  std::printf("warpsim simulator benchmark (one core)\n");
#endif
  for (const Figure& f : kFigures) {
    bool wanted = argc == 1;
    for (int a = 1; a < argc; ++a) wanted = wanted || std::strcmp(argv[a], f.name) == 0;
    if (wanted) f.run();
  }
  return 0;
}
