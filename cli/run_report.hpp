// What `warpsim run` prints: the run.md JSON object, or a report for people. Both render the one
// result of a run (runner::KernelFileResult) and, with --gpu, what the GPU side did.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "warpsim/device_trace.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::cli {

// The GPU side of `run --gpu`: it ran and was compared, failed, or was not sent at all.
struct GpuOutcome {
  std::optional<GpuRun> run;
  std::optional<GpuComparison> comparison;
  std::optional<Error> error;  // the GPU run failed (compile, driver, ...)
  std::string skipped;         // why the kernel was not sent to the GPU
};

nlohmann::ordered_json run_json(const runner::KernelFileResult& result, const GpuOutcome* gpu);
void write_run_text(std::ostream& out, const runner::KernelFileResult& result,
                    const GpuOutcome* gpu);

// A launch extent as the user would type it: "32" or "8,4,1".
std::string shape_text(Dim3 d);
// The coordinates of a linear block or thread index within `extent`.
Dim3 coordinates(std::uint64_t linear, Dim3 extent);
// A buffer as people read it: "[0, 1, 2, ..., 30, 31]", at most `head` + `tail` elements.
std::string buffer_text(const runner::OutputBuffer& buffer, std::uint64_t head = 32,
                        std::uint64_t tail = 8);
// run.md's "diagnostics" array for a trace of a launch of shape `grid`.
nlohmann::ordered_json diagnostics_json(const Trace& trace, Dim3 grid);
// Every element of a buffer as run.md's JSON writes them.
nlohmann::ordered_json buffer_values_json(const runner::OutputBuffer& buffer);

}  // namespace warpsim::cli
