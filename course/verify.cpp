// `warpsim lesson ID --verify`: a preset's run against its reference, its expected diagnostics,
// its narrative's anchors and the GPU (recorded or live).
#include <algorithm>
#include <set>

#include "warpsim/compared_buffers.hpp"
#include "warpsim/course.hpp"

namespace warpsim::course {
namespace {

// The run must stop this way when the lesson is about a kernel that stops.
runner::RunStatus expected_status(const Preset& preset) {
  for (const DiagnosticKind kind : preset.diagnostics) {
    if (kind == DiagnosticKind::deadlock) return runner::RunStatus::deadlock;
    if (kind == DiagnosticKind::step_budget_exceeded) return runner::RunStatus::step_budget_exceeded;
  }
  return runner::RunStatus::completed;
}

void check_reference(const Lesson& lesson, const Preset& preset, const LessonRun& run,
                     LessonCheck& check) {
  Launch launch = preset.launch;
  launch.kernel = preset.reference_kernel;
  launch.grid = lesson.reference_grid;
  launch.block = lesson.reference_block;
  runner::KernelFileRequest request = request_for(lesson.reference_file(), launch);
  request.record_steps = false;
  const runner::KernelFileResult reference = runner::run_kernel_file(request);
  if (reference.status != runner::RunStatus::completed) {
    check.reference_problem = "the reference (" + launch.kernel + " in reference.cu) did not run: " +
                              reference.message;
    return;
  }
  std::vector<runner::OutputBuffer> mine, theirs;
  for (const std::size_t arg : lesson.check) {
    for (const runner::OutputBuffer& b : run.result.buffers) {
      if (b.arg == arg) mine.push_back(b);
    }
    for (const runner::OutputBuffer& b : reference.buffers) {
      if (b.arg == arg) theirs.push_back(b);
    }
  }
  const runner::ComparedBuffers a(mine), b(theirs);
  check.reference = compare_buffers(a.data(), b.data(), lesson.tolerance_ulps);
  const bool all_match = std::all_of(check.reference.begin(), check.reference.end(),
                                     [](const BufferComparison& c) { return c.matches(); });
  if (preset.differs_from_reference && all_match) {
    check.reference_problem = "this preset is meant to show a wrong result, but it matches the reference";
  } else if (!preset.differs_from_reference && !all_match) {
    for (const BufferComparison& c : check.reference) {
      if (c.matches()) continue;
      check.reference_problem = "arg " + std::to_string(c.arg) + " differs from the reference" +
                                (c.first_index ? " first at [" + std::to_string(*c.first_index) +
                                                     "]: kernel " + format_element(c.sim_bits, c.type) +
                                                     ", reference " + format_element(c.gpu_bits, c.type)
                                               : ": " + c.problem);
      break;
    }
  }
}

void check_diagnostics(const Preset& preset, const LessonRun& run, LessonCheck& check) {
  std::set<DiagnosticKind> present, expected(preset.diagnostics.begin(), preset.diagnostics.end());
  for (const Diagnostic& d : run.result.trace.diagnostics) present.insert(d.kind);
  for (const DiagnosticKind kind : expected) {
    if (!present.count(kind)) {
      check.diagnostic_problems.push_back("expected a " + std::string(to_string(kind)) +
                                          " diagnostic; there is none");
    }
  }
  for (const Diagnostic& d : run.result.trace.diagnostics) {
    if (!expected.count(d.kind)) {
      check.diagnostic_problems.push_back("unexpected " + std::string(to_string(d.kind)) + ": " +
                                          d.message);
      expected.insert(d.kind);  // once per kind
    }
  }
}

// Every note and question anchors to a step of the focus warp that exists.
void check_text(const Lesson& lesson, const LessonRun& run, LessonCheck& check) {
  for (const Note& note : lesson.notes) {
    const bool shown = std::any_of(run.narrative.begin(), run.narrative.end(),
                                   [&](const NarratedStep& s) { return s.note == &note; });
    if (!shown) {
      check.text_problems.push_back(
          "note at \"" + note.site + "\"" + (note.pass ? ", pass " + std::to_string(*note.pass) : "") +
          ": block " + std::to_string(lesson.focus.block) + " warp " +
          std::to_string(lesson.focus.warp) + " has no such step (or other notes cover every pass)");
    }
  }
  for (const Question& question : lesson.questions) {
    if (auto a = answers(run, question); !a) check.text_problems.push_back(a.error().message);
  }
}

}  // namespace

bool LessonCheck::passed() const {
  return message.empty() && reference_problem.empty() && diagnostic_problems.empty() &&
         text_problems.empty() && (!gpu || gpu->matches());
}

LessonCheck verify_lesson(const Lesson& lesson, const Preset& preset, const GpuRun* gpu) {
  LessonCheck check;
  check.preset = preset.name;
  const LessonRun run = run_lesson(lesson, preset);
  check.status = run.result.status;
  const runner::RunStatus wanted = expected_status(preset);
  if (run.result.status == runner::RunStatus::bad_input) {
    check.message = run.result.message + (run.result.details.empty() ? "" : "\n" + run.result.details);
    return check;
  }
  if (run.result.status != wanted) {
    check.message = "the run ended " + std::string(runner::to_string(run.result.status)) +
                    " where the lesson expects " + std::string(runner::to_string(wanted)) +
                    (run.result.message.empty() ? "" : ": " + run.result.message);
  }
  check_diagnostics(preset, run, check);
  if (&preset == &lesson.presets.front()) check_text(lesson, run, check);
  if (run.result.status == runner::RunStatus::completed) check_reference(lesson, preset, run, check);

  if (preset.gpu_skip) {
    check.gpu_note = "not run on a GPU: " + *preset.gpu_skip;
  } else if (gpu == nullptr) {
    check.gpu_note = "no GPU run to compare with";
  } else if (run.result.status != runner::RunStatus::completed) {
    check.gpu_note = "the simulation did not complete";
  } else {
    const runner::ComparedBuffers sim(run.result.buffers);
    check.gpu = compare_run(*gpu, &run.result.trace, sim.data(), lesson.tolerance_ulps);
  }
  return check;
}

}  // namespace warpsim::course
