// The first failing case, lane by lane: its elements around the first wrong one (inputs, expected,
// got) and the step to look at, found by lining the submission's warp-level calls up with the
// reference's, lane by lane (the k-th call of a lane against the reference lane's k-th call, as a
// GPU's device trace is lined up with the simulator's).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <sstream>

#include "grading_internal.hpp"
#include "warpsim/device_trace.hpp"

namespace warpsim::course {
namespace {

namespace fs = std::filesystem;
using namespace detail;

// The reference's run as a device trace of every thread, lines left out (the two files differ).
DeviceTrace as_device_trace(const Trace& reference) {
  DeviceTrace t;
  t.grid = reference.grid;
  t.block = reference.block;
  t.traced_blocks = reference.grid.count();
  t.capacity = ~std::uint32_t{0};
  const auto threads = static_cast<std::uint32_t>(reference.block.count());
  for (std::uint64_t b = 0; b < reference.grid.count(); ++b) {
    for (std::uint32_t thread = 0; thread < threads; ++thread) {
      DeviceThreadCalls calls{b, thread, 0, {}};
      for (const LaneCall& c : lane_calls(reference, b, thread)) {
        DeviceCall call = c.call;
        call.line = 0;
        calls.calls.push_back(call);
      }
      t.threads.push_back(std::move(calls));
    }
  }
  return t;
}

std::string line_of(const fs::path& file, std::uint32_t line) {
  auto text = runner::read_text_file(file.string());
  if (!text || line == 0) return {};
  std::istringstream in(*text);
  std::string s;
  for (std::uint32_t n = 1; std::getline(in, s); ++n) {
    if (n == line) return s;
  }
  return {};
}

bool element_differs(const Exercise& e, runner::ElementType type, std::uint64_t got,
                     std::uint64_t expected) {
  if (got == expected) return false;
  const ValueType t = value_type(type);
  if (e.comparison == Comparison::bits || (t != ValueType::f32 && t != ValueType::f64)) return true;
  const auto is_nan = [&](std::uint64_t bits) {
    return t == ValueType::f32 ? std::isnan(std::bit_cast<float>(static_cast<std::uint32_t>(bits)))
                               : std::isnan(std::bit_cast<double>(bits));
  };
  if (is_nan(got) || is_nan(expected)) return !(is_nan(got) && is_nan(expected));
  return ulp_distance(got, expected, t) > e.tolerance_ulps;
}

void build_table(const Exercise& e, FailureDetail& d, std::int64_t anchor, bool custom_windows) {
  const GradeCase& c = d.grade_case;
  std::map<std::string, std::int64_t> vars = c.vars;
  vars["i"] = anchor;
  for (std::size_t p = 0; p < e.params.size(); ++p) {
    const ExerciseParam& param = e.params[p];
    if (!param.is_buffer) continue;
    const runner::ArgSpec& arg = c.args[p];
    if (arg.count == 0) continue;
    std::int64_t start = (anchor / 32) * 32;
    if (custom_windows) {
      if (auto w = evaluate(param.window, vars)) start = *w;
    }
    const auto first = static_cast<std::uint64_t>(
        std::clamp<std::int64_t>(start, 0, static_cast<std::int64_t>(arg.count - 1)));
    const std::uint64_t n = std::min<std::uint64_t>(32, arg.count - first);
    const ValueType t = value_type(param.type);
    // A checked buffer shows what it held before when that was data (keys sorted in place), not a
    // fill (zeros, a sentinel).
    const bool data = std::any_of(arg.list.begin(), arg.list.end(),
                                  [&](std::uint64_t b) { return b != arg.list.front(); });
    if (!param.checked || data) {
      ElementRow row{ElementRow::Kind::input,
                     param.checked ? param.name + " before" : param.name,
                     p,
                     first,
                     {},
                     {}};
      for (std::uint64_t k = 0; k < n; ++k)
        row.cells.push_back(format_element(arg.list[first + k], t));
      d.table.push_back(std::move(row));
    }
    if (!param.checked) continue;
    const runner::OutputBuffer* expected = buffer_at(d.reference, p);
    const runner::OutputBuffer* got = buffer_at(d.submission, p);
    if (expected == nullptr) continue;
    ElementRow x{ElementRow::Kind::expected, param.name + " expected", p, first, {}, {}};
    ElementRow g{ElementRow::Kind::got, param.name + " got", p, first, {}, {}};
    for (std::uint64_t k = first; k < first + n && k < expected->count(); ++k) {
      x.cells.push_back(format_element(expected->element(k), t));
      if (got != nullptr && k < got->count()) {
        g.cells.push_back(format_element(got->element(k), t));
        g.differs.push_back(element_differs(e, param.type, got->element(k), expected->element(k)));
      }
    }
    d.table.push_back(std::move(x));
    if (got != nullptr && d.submission.status == runner::RunStatus::completed)
      d.table.push_back(std::move(g));
  }
}

std::string call_name(const DeviceCall& call) { return std::string(intrinsic_for(call.op).name); }

void find_step(const Exercise& e, FailureDetail& d) {
  const runner::KernelFileResult& sub = d.submission;
  const DeviceTrace reference = as_device_trace(d.reference.trace);
  std::optional<std::size_t> step;
  for (const Diagnostic& diagnostic : sub.trace.diagnostics) {
    if (diagnostic.step >= 0 &&
        static_cast<std::size_t>(diagnostic.step) < sub.trace.steps.size()) {
      step = static_cast<std::size_t>(diagnostic.step);
      d.step_reason = "the step of the first diagnostic: " + diagnostic_text(sub, diagnostic);
      break;
    }
  }
  // The memory checks' findings (a checked run's) name lines, not steps: the step shown is the
  // last one recorded before the access the first of them names (the lanes as the race or the
  // read happened); without one (a finding before any step), the first that differs from the
  // reference's, as without checks.
  const auto finding = std::find_if(
      sub.trace.diagnostics.begin(), sub.trace.diagnostics.end(), [&](const Diagnostic& diagnostic) {
        return runner::is_memory_finding(diagnostic.kind) && diagnostic.step_before >= 0 &&
               static_cast<std::size_t>(diagnostic.step_before) < sub.trace.steps.size();
      });
  if (!step && finding != sub.trace.diagnostics.end()) {
    step = static_cast<std::size_t>(finding->step_before);
    d.step_reason = "the last step recorded before the access the memory checks named first (" +
                    std::string(to_string(finding->kind)) + " at " +
                    site_text(sub.trace, finding->where) + " by block " +
                    std::to_string(finding->block) + " warp " + std::to_string(finding->warp) + ")";
  }
  const auto not_memory = std::find_if(
      sub.trace.diagnostics.begin(), sub.trace.diagnostics.end(),
      [](const Diagnostic& diagnostic) { return !runner::is_memory_finding(diagnostic.kind); });
  if (!step && not_memory != sub.trace.diagnostics.end()) {
    d.step_reason = diagnostic_text(sub, *not_memory);
  } else if (!step && sub.status != runner::RunStatus::completed) {
    d.step_reason =
        "the run stopped (" + std::string(runner::to_string(sub.status)) + "): " + sub.message;
  } else if (!step) {
    const TraceComparison cmp = compare(sub.trace, reference, e.tolerance_ulps);
    if (!cmp.incomparable.empty()) {
      d.step_reason = "the runs cannot be lined up: " + cmp.incomparable;
    } else if (!cmp.first_difference) {
      d.step_reason =
          "every warp-level call gives each lane the same values as the reference's: the "
          "difference comes after "
          "them, in which lanes write which values to memory, or where";
    } else {
      const CallDifference& diff = *cmp.first_difference;
      const std::string who = "lane " + std::to_string(diff.lane) + " of block " +
                              std::to_string(diff.block) + " warp " + std::to_string(diff.warp) +
                              ", its call " + std::to_string(diff.call + 1);
      if (diff.sim_step >= 0) step = static_cast<std::size_t>(diff.sim_step);
      switch (diff.field) {
        case CallField::output:
          d.step_reason =
              "the first step where a lane receives another value than the reference's lane at the "
              "same "
              "call (" +
              who + ")";
          break;
        case CallField::input:
          d.step_reason =
              "the first step where a lane passes in another value than the reference's lane at "
              "the same "
              "call (" +
              who + "): the values went wrong before this call";
          break;
        case CallField::mask:
        case CallField::arg:
        case CallField::width:
        case CallField::pred:
          d.step_reason = "the first step where a lane passes another " +
                          std::string(to_string(diff.field)) +
                          " than the reference's lane at the same call (" + who + ")";
          break;
        case CallField::op:
        case CallField::type:
        case CallField::count:
        case CallField::line:
          if (diff.sim && diff.gpu) {
            d.step_reason =
                "here the warp-level calls stop lining up with the reference's (" + who + " is " +
                call_name(*diff.sim) + ", the reference's " + call_name(*diff.gpu) +
                "): the kernel takes another path, so the steps are not compared past this one";
          } else if (diff.sim) {
            d.step_reason = "the kernel makes more warp-level calls than the reference (" + who +
                            " has no counterpart)";
          } else {
            d.step_reason = "the kernel makes fewer warp-level calls than the reference: " + who +
                            " of the reference (" + call_name(*diff.gpu) + ") has no counterpart";
          }
          break;
      }
    }
  }
  if (!step) return;
  const auto expected = expected_outputs(sub.trace, d.index, *step, d.reference.trace);
  StepViewOptions options;
  if (std::any_of(expected.begin(), expected.end(), [](const auto& v) { return v.has_value(); })) {
    options.other = &expected;
    options.other_label = "expected";
  }
  d.step = describe_step(sub.trace, d.index, *step, options);
  d.source_line = line_of(sub.file, d.step->where.line);
}

}  // namespace

std::array<std::optional<std::uint64_t>, kWarpSize> expected_outputs(const Trace& sub,
                                                                     const TraceIndex& index,
                                                                     std::size_t step,
                                                                     const Trace& reference) {
  std::array<std::optional<std::uint64_t>, kWarpSize> out{};
  const StepInfo& info = index.info(step);
  const TraceStep s = sub.steps.at(step);
  std::array<std::size_t, kWarpSize> before{};
  for (const std::size_t earlier : index.steps_of(info.warp)) {
    if (earlier >= step) break;
    const LaneMask took_part = index.info(earlier).participants;
    for (int lane = 0; lane < kWarpSize; ++lane)
      before[static_cast<std::size_t>(lane)] += has_lane(took_part, lane) ? 1 : 0;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(s.participants, lane)) continue;
    const auto at = static_cast<std::size_t>(lane);
    const std::vector<LaneCall> calls = lane_calls(
        reference, info.warp.block, info.warp.warp * kWarpSize + static_cast<std::uint32_t>(lane));
    if (before[at] < calls.size() && calls[before[at]].call.op == s.op &&
        calls[before[at]].call.type == s.type) {
      out[at] = calls[before[at]].call.output;
    }
  }
  return out;
}

FailureDetail explain_failure(const Exercise& e, const fs::path& submission, const GradeCase& c,
                              const Schedule& s, std::size_t case_index,
                              const runner::KernelFileResult* failed,
                              const runner::Sandbox& sandbox, GradingRunners* runners,
                              bool checked) {
  FailureDetail d;
  d.case_index = case_index;
  d.grade_case = c;
  d.schedule = s;
  if (failed != nullptr && failed->status == runner::RunStatus::timeout) {
    d.submission = *failed;  // another time limit would show nothing more
  } else {
    // The steps again, but not a runaway's hundreds of thousands: its first few thousand hold
    // its first diagnostic and the first step that differs from the reference's.
    runner::KernelFileRequest request = request_for_case(e, submission, c, s, true);
    request.sandbox = sandbox;
    if (checked) {
      detail::add_memory_checks(e, request);
      d.checked = true;
    }
    const bool runaway =
        failed != nullptr &&
        (failed->status == runner::RunStatus::step_budget_exceeded || failed->steps > kDetailSteps);
    if (runaway) request.max_steps = kDetailSteps;
    d.submission = runners != nullptr ? runners->submission.run(request)
                                      : runner::run_kernel_file(request);
    if (runaway) {
      // As the failing run ended; the steps are those of its beginning.
      d.submission.status = failed->status;
      d.submission.message = failed->message;
      d.submission.steps = failed->steps;
      d.submission.buffers = failed->buffers;
      for (Diagnostic& diagnostic : d.submission.trace.diagnostics) {
        if (diagnostic.kind == DiagnosticKind::step_budget_exceeded)
          diagnostic.message = failed->message;
      }
    }
  }
  const Schedule in_order{"in order", ConvergencePolicy::maximal, 1, 0};
  const runner::KernelFileRequest reference = request_for_case(e, e.solution_file(), c, in_order, true);
  d.reference = runners != nullptr ? runners->reference.run(reference)
                                   : runner::run_kernel_file(reference);
  d.index = TraceIndex(d.submission.trace);

  std::int64_t anchor = 0;
  bool custom_windows = false;
  if (d.submission.status == runner::RunStatus::completed) {
    if (auto m = first_mismatch(e, d.submission, d.reference)) {
      d.first_wrong = std::make_pair(m->arg, m->index);
      anchor = static_cast<std::int64_t>(m->index);
      custom_windows = true;
    }
  }
  if (!d.first_wrong && !d.submission.trace.diagnostics.empty()) {
    // The elements of the warp the first diagnostic names, one per thread.
    const Diagnostic& first = d.submission.trace.diagnostics.front();
    anchor = static_cast<std::int64_t>(first.block * c.block.count() +
                                       std::uint64_t{first.warp} * kWarpSize);
  }
  build_table(e, d, anchor, custom_windows);
  find_step(e, d);
  return d;
}

}  // namespace warpsim::course
