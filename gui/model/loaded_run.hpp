// A run as the GUI shows it: what was asked for (RunRequest), and the finished run with what is
// derived from it alone (LoadedRun: the trace's index, the file's lines and marks, the compiler's
// messages, the GPU's side). Made on the app's worker thread, so that indexing a long trace or
// reading a recorded GPU run never stalls a frame; app_model.hpp's finish_run takes it in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/compiler_messages.hpp"
#include "model/exercise_state.hpp"
#include "model/file_stamp.hpp"
#include "warpsim/course.hpp"
#include "warpsim/device_trace.hpp"
#include "warpsim/expected.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/step_view.hpp"

namespace warpsim::gui {

// What to run: a kernel file of the learner's, or a lesson's preset (its inputs perhaps edited).
struct RunRequest {
  runner::KernelFileRequest file;                 // what runs, either way
  std::shared_ptr<const course::Lesson> lesson;   // null: a kernel file
  std::shared_ptr<const course::Preset> preset;   // the lesson's preset as it runs
  bool edited = false;                            // the inputs differ from the preset's own
  std::string gpu_record;  // a recorded GPU run (GpuRun JSON, .gz too) to compare with; empty:
                           // the lesson's own record of the preset, if any
  bool live_gpu = false;   // run the same launch on this machine's GPU and compare with that
  // A case of an exercise's grading (file.file is the file graded): course::explain_case runs it,
  // and the reference solution, whose lanes' values are each step's "expected" row.
  std::optional<CaseRef> exercise_case;
};

// Runs a request's launch on a GPU (gui/model/live_gpu.hpp supplies one in builds with CUDA);
// `sim` is the simulator's run of it, with its initial buffers kept.
using LiveGpu = std::function<Expected<GpuRun>(const RunRequest&, const runner::KernelFileResult& sim)>;

// The GPU's side of the same launch: what it received at each step, its buffers compared with the
// simulator's, and where it comes from.
struct GpuSide {
  GpuDevice device;
  std::string source;                 // "recorded run gpu/default.json.gz", or the file given
  GpuComparison comparison;           // buffers, and steps where the run has a device trace
  GpuStepOutputs steps;               // per step and lane: what the GPU's lane received
  std::vector<std::size_t> differing_steps;  // steps where a lane's GPU value differs (sorted)
};
// "NVIDIA H100 80GB HBM3 · driver 580.65.06 · CUDA 13.0 · recorded 2026-11-23"
std::string provenance(const GpuDevice& device);
// "H100": the row label of the GPU's values ("gpu" when the name says nothing short).
std::string short_device_name(const GpuDevice& device);

// A finished run and what is derived from it alone: a course::LessonRun (result, index and, for a
// lesson, its narrative) and more. Built on the worker thread, so that indexing a 50,000-step
// trace never stalls a frame.
struct LoadedRun : course::LessonRun {
  std::uint64_t generation = 0;
  RunRequest request;  // keeps the lesson and preset that LessonRun points into alive
  std::vector<std::string> source_lines;  // the kernel file as it was when it ran
  FileStamp stamp;                        // ... and its stamp then
  std::vector<CompilerMessage> compiler_messages;
  std::vector<runner::KernelInfo> kernels;  // the file's __global__ functions
  double seconds = 0;                       // how long the run took
  std::optional<std::uint32_t> kernel_file;  // the kernel file's index in trace.files
  // Per line of the kernel file (index line - 1): kLineHasSteps | kLineHasDiagnostic.
  std::vector<std::uint8_t> line_marks;
  std::optional<GpuSide> gpu;
  std::string gpu_note;  // why there is no GPU side
  // A grading case: what course::explain_case said of it (the reference's run, the table of
  // elements, the step to look at and why); its `submission` is moved into `result`.
  std::shared_ptr<const course::FailureDetail> detail;
};
inline constexpr std::uint8_t kLineHasSteps = 1, kLineHasDiagnostic = 2;

// The lines of the kernel file that the run's first memory finding names (a race's two lines,
// first and last; one line twice), or nullopt: where the source panel opens, since a race happens
// between lines, not at a step.
std::optional<std::pair<std::uint32_t, std::uint32_t>> finding_lines(const LoadedRun& run);
// The last step recorded before the access of the run's first memory finding
// (Diagnostic::step_before), for the lane view to open on; none: no such finding, or it came
// before any step.
std::optional<std::size_t> finding_step(const LoadedRun& run);

// Everything after the run itself: reads the file, indexes the trace, parses compiler output,
// loads (or, with request.live_gpu, makes through `live`) and compares the GPU's run.
LoadedRun make_loaded_run(std::uint64_t generation, RunRequest request, course::LessonRun run,
                          double seconds, const LiveGpu& live = {});
// Runs the request (compile or cache, child process) and makes a LoadedRun: blocks.
LoadedRun run_and_load(std::uint64_t generation, const RunRequest& request,
                       const LiveGpu& live = {});


// A message with the trace's files named as the learner knows them ("kernel.cu:28", not the
// absolute path the compiler saw).
std::string readable(const Trace& trace, std::string message);
// "missing_lane (lanes 3-5): lane 3 never arrived ..." for each diagnostic of a step.
std::vector<std::string> diagnostic_lines(const Trace& trace, const StepView& step);

// A grading case's run made from what course::explain_case said (or why it could not).
LoadedRun load_case(std::uint64_t generation, RunRequest request,
                    Expected<course::FailureDetail> explained, double seconds);

}  // namespace warpsim::gui
