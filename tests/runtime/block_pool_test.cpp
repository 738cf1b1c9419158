// A launch's blocks spread over several OS threads give what a run on one thread gives: the same
// buffers (where no two blocks race), steps, diagnostics, printf lines and the same stop.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "block_pool_kernels.cuh"

using warpsim::LaunchOptions;
using warpsim::LaunchResult;
using warpsim::LaunchStatus;

namespace {

LaunchOptions spread(unsigned grid, unsigned block, unsigned jobs) {
  LaunchOptions options;
  options.grid = {grid};
  options.block = {block};
  options.record_steps = false;
  options.jobs = jobs;
  return options;
}

// Diagnostics as comparable text: everything a report shows of them.
std::vector<std::string> diagnostics_of(const LaunchResult& r) {
  std::vector<std::string> lines;
  for (const warpsim::Diagnostic& d : r.trace.diagnostics) {
    lines.push_back(std::string(warpsim::to_string(d.kind)) + " | " + d.message + " | " +
                    std::to_string(d.lanes) + " | " + std::to_string(d.block) + " | " +
                    std::to_string(d.warp) + " | " + std::to_string(d.step) + " | " +
                    r.trace.files.at(d.where.file) + ":" + std::to_string(d.where.line) + " | " +
                    std::to_string(d.occurrences));
  }
  return lines;
}

std::vector<std::string> printf_of(const LaunchResult& r) {
  std::vector<std::string> lines;
  for (const warpsim::PrintfRecord& p : r.trace.printf_records) {
    lines.push_back(std::to_string(p.block) + "/" + std::to_string(p.thread) + ": " + p.text);
  }
  return lines;
}

}  // namespace

TEST_CASE("blocks spread over threads give the buffers, steps, diagnostics and printf of one") {
  constexpr unsigned kGrid = 41, kBlock = 96;
  std::vector<int> in(kGrid * kBlock);
  std::iota(in.begin(), in.end(), -300);
  std::vector<int> one_out(in.size(), -1), many_out(in.size(), -1);
  unsigned long long one_total = 0, many_total = 0;
  const LaunchResult one = warpsim::launch(
      spread(kGrid, kBlock, 1), [&] { pool::mixed(in.data(), one_out.data(), &one_total); });
  for (const unsigned jobs : {2u, 3u, 8u}) {
    CAPTURE(jobs);
    std::fill(many_out.begin(), many_out.end(), -1);
    many_total = 0;
    const LaunchResult many = warpsim::launch(
        spread(kGrid, kBlock, jobs), [&] { pool::mixed(in.data(), many_out.data(), &many_total); });
    CHECK(many.status == LaunchStatus::completed);
    CHECK(many.steps == one.steps);
    CHECK(many_out == one_out);
    CHECK(many_total == one_total);
    CHECK(diagnostics_of(many) == diagnostics_of(one));
    CHECK(printf_of(many) == printf_of(one));
  }
  REQUIRE_FALSE(one.trace.diagnostics.empty());  // the comparison compared something
  CHECK(one.trace.diagnostics[0].occurrences > 1);
  CHECK(printf_of(one).size() == 9);  // blocks 0, 5, ..., 40
}

TEST_CASE("a block that deadlocks stops a spread launch there, as on one thread") {
  constexpr unsigned kGrid = 64, kBlock = 64;
  std::vector<int> out(kGrid * kBlock, 0);
  const LaunchResult one =
      warpsim::launch(spread(kGrid, kBlock, 1), [&] { pool::deadlock_in_block(out.data(), 37); });
  const LaunchResult many =
      warpsim::launch(spread(kGrid, kBlock, 4), [&] { pool::deadlock_in_block(out.data(), 37); });
  REQUIRE(one.status == LaunchStatus::deadlock);
  CHECK(many.status == one.status);
  CHECK(many.message == one.message);
  CHECK(many.message.find("block 37") != std::string::npos);
  CHECK(many.steps == one.steps);
  CHECK(diagnostics_of(many) == diagnostics_of(one));
}

TEST_CASE("atomics stay atomic when blocks run at once") {
  constexpr unsigned kGrid = 200;
  int counter[2] = {0, 0};
  std::vector<int> tickets(kGrid, -1);
  const LaunchResult r =
      warpsim::launch(spread(kGrid, 128, 4), [&] { pool::tickets(counter, tickets.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  CHECK(counter[0] == static_cast<int>(kGrid));
  CHECK(counter[1] == static_cast<int>(kGrid * 128 * 64));
  std::sort(tickets.begin(), tickets.end());
  for (unsigned b = 0; b < kGrid; ++b) CHECK(tickets[b] == static_cast<int>(b));
}

TEST_CASE("a launch whose trace records steps, or with an order seed, runs its blocks in order") {
  std::vector<int> in(4 * 32, 1), out(in.size());
  unsigned long long total = 0;
  LaunchOptions options = spread(4, 32, 4);
  options.record_steps = true;
  const LaunchResult traced =
      warpsim::launch(options, [&] { pool::mixed(in.data(), out.data(), &total); });
  CHECK(traced.trace.steps.size() == traced.steps);
  // Steps recorded block after block: block indices never go down.
  std::uint64_t last_block = 0;
  for (std::size_t k = 0; k < traced.trace.steps.size(); ++k) {
    CHECK(traced.trace.steps[k].block >= last_block);
    last_block = traced.trace.steps[k].block;
  }
}
