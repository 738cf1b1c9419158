// Traces of the GUI test kernels, run in-process (no compiler, no child): what the view layer
// draws in its tests.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <numeric>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/step_view.hpp"
#include "warpsim/trace_index.hpp"

namespace gui_test {

inline warpsim::Trace run(std::uint32_t blocks, std::uint32_t threads,
                          const std::function<void()>& body) {
  warpsim::LaunchOptions options;
  options.grid = {blocks};
  options.block = {threads};
  warpsim::LaunchResult r = warpsim::launch(options, body);
  REQUIRE(r.status == warpsim::LaunchStatus::completed);
  return std::move(r.trace);
}

struct Described {
  warpsim::Trace trace;
  warpsim::TraceIndex index;
  std::vector<warpsim::StepView> steps;
};

inline Described describe_all(warpsim::Trace trace, warpsim::ValueFormat format = {}) {
  Described d{std::move(trace), {}, {}};
  d.index = warpsim::TraceIndex(d.trace);
  for (std::size_t s = 0; s < d.trace.steps.size(); ++s) {
    d.steps.push_back(warpsim::describe_step(d.trace, d.index, s, {.format = format}));
  }
  return d;
}

}  // namespace gui_test
