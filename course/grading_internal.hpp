// Pieces of grading shared by grading.cpp (runs and verdicts) and grading_detail.cpp (the first
// failing case, lane by lane). Not installed.
#pragma once

#include <optional>
#include <string>

#include "warpsim/device_trace.hpp"
#include "warpsim/grading.hpp"
#include "warpsim/kernel_file_runner.hpp"

namespace warpsim::course {
namespace detail {

ValueType value_type(runner::ElementType type);

const runner::OutputBuffer* buffer_at(const runner::KernelFileResult& r, std::size_t arg);

// The first checked buffer that differs from the reference's, as the exercise compares them.
struct Mismatch {
  std::size_t arg = 0;
  std::uint64_t index = 0;
  BufferComparison comparison;
  std::string text;  // "out[4] is 0, expected 172.5 (3 elements of out differ)"
};
std::optional<Mismatch> first_mismatch(const Exercise& e, const runner::KernelFileResult& got,
                                       const runner::KernelFileResult& expected);

// How one run of the submission fares against the reference's run of the same case.
struct Verdict {
  CaseOutcome outcome = CaseOutcome::passed;
  std::string message;
  std::string headline;
  std::optional<Mismatch> mismatch;
};
Verdict judge(const Exercise& e, const runner::KernelFileResult& got,
              const runner::KernelFileResult& expected);

// "grid 3, block 128, n = 384"
std::string launch_text(const Exercise& e, const GradeCase& c);
// The race, uninitialised-read and bounds checks on a run of the submission (`--check all`), with
// the time limit the instrumented code needs.
void add_memory_checks(const Exercise& e, runner::KernelFileRequest& request);
// "undefined_source at sub.cu:12 (block 0, warp 0, lanes 4-15): ..."
std::string diagnostic_text(const runner::KernelFileResult& r, const Diagnostic& d);

}  // namespace detail

// The first failing case again, with steps recorded, beside the reference's run: the table of
// elements around the first wrong one and the step to look at. `failed`: the failing run
// (steps not recorded), or null: not repeated when it ran out of time, and repeated with at most
// kDetailSteps steps recorded when it ran away or made more than that.
inline constexpr std::uint64_t kDetailSteps = 5000;
// The runs of one grading: the submission's, and the reference solution's (outside the sandbox),
// each file compiled once and its launches in a kernel host of its own.
struct GradingRunners {
  runner::KernelFileRunner submission;
  runner::KernelFileRunner reference;
};

// `sandbox`: where the submission runs again (inactive: as the user); `runners`: the grading's
// (null: the runs start their own kernel hosts); `checked`: the steps are recorded under the
// memory checks (the case's checked run found the bug), so that their finding is among the run's
// diagnostics, its lines marked.
FailureDetail explain_failure(const Exercise& e, const std::filesystem::path& submission,
                              const GradeCase& c, const Schedule& s, std::size_t case_index,
                              const runner::KernelFileResult* failed,
                              const runner::Sandbox& sandbox = {},
                              GradingRunners* runners = nullptr, bool checked = false);

}  // namespace warpsim::course
