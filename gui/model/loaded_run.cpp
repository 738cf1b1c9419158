#include "model/loaded_run.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <zlib.h>

#include "warpsim/compared_buffers.hpp"
#include "warpsim/text_lines.hpp"

namespace warpsim::gui {
namespace fs = std::filesystem;

std::string readable(const Trace& trace, std::string message) {
  for (const std::string& file : trace.files) {
    const std::string name = fs::path(file).filename().string();
    if (file.empty() || name == file) continue;
    for (std::size_t at = message.find(file); at != std::string::npos; at = message.find(file, at)) {
      message.replace(at, file.size(), name);
      at += name.size();
    }
  }
  return message;
}

std::vector<std::string> diagnostic_lines(const Trace& trace, const StepView& step) {
  std::vector<std::string> lines;
  for (const std::size_t d : step.diagnostics) {
    lines.push_back(diagnostic_at_step_text(trace, trace.diagnostics[d]));
  }
  return lines;
}

std::string provenance(const GpuDevice& d) {
  std::string s = d.name.empty() ? "a GPU" : d.name;
  if (!d.driver_release.empty()) {
    s += " · driver " + d.driver_release;
  } else if (d.driver != 0) {
    s += " · driver " + std::to_string(d.driver / 1000) + "." + std::to_string(d.driver % 1000 / 10);
  }
  if (d.cuda != 0) s += " · CUDA " + std::to_string(d.cuda / 1000) + "." + std::to_string(d.cuda % 1000 / 10);
  if (!d.date.empty()) s += " · " + d.date.substr(0, 10);
  return s;
}

std::string short_device_name(const GpuDevice& d) {
  // "NVIDIA H100 80GB HBM3" -> "H100": the model, where there is one to be found.
  std::string name = d.name;
  if (name.starts_with("NVIDIA ")) name.erase(0, 7);
  name = name.substr(0, name.find(' '));
  return name.empty() || name.size() > 8 ? "gpu" : name;
}

namespace {

Expected<GpuRun> read_gpu_run_file(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");  // reads plain files as they are, too
  if (file == nullptr) return fail(ErrorKind::file, "cannot read " + path);
  std::string text;
  char chunk[1 << 16];
  int n = 0;
  while ((n = gzread(file, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
  gzclose(file);
  if (n < 0) return fail(ErrorKind::file, "cannot read " + path);
  auto run = read_gpu_run_json(text);
  if (!run) return fail(path + ": " + run.error().message);
  return run;
}

// The GPU's run of the same launch, compared with the simulator's.
void load_gpu_side(LoadedRun& r, const LiveGpu& live) {
  if (r.result.status != runner::RunStatus::completed) {
    // A kernel that deadlocks or crashes is not run on a GPU: it would hang or fault it.
    if (r.request.live_gpu) r.gpu_note = "Not run on the GPU: the simulator's run did not complete.";
    return;
  }
  Expected<GpuRun> gpu = fail("");
  std::string source;
  if (!r.request.gpu_record.empty()) {
    gpu = read_gpu_run_file(r.request.gpu_record);
    source = r.request.gpu_record;
  } else if (r.request.live_gpu) {
    if (!live) {
      r.gpu_note = "This warpsim-gui has no GPU support.";
      return;
    }
    gpu = live(r.request, r.result);
    source = "live run on this machine's GPU";
  } else if (r.request.lesson && r.request.preset) {
    if (r.request.edited) {
      r.gpu_note = "The inputs were edited: the lesson's recorded GPU run is of the preset's own.";
      return;
    }
    gpu = course::load_gpu_record(*r.request.lesson, *r.request.preset);
    source = "recorded run gpu/" + r.request.preset->name + ".json.gz";
  } else {
    r.gpu_note = "No GPU run to compare with: on a machine with an NVIDIA GPU, `warpsim run FILE.cu "
                 "... --gpu` compares this launch there.";
    return;
  }
  if (!gpu) {
    r.gpu_note = gpu.error().message;
    return;
  }
  GpuSide side;
  side.device = gpu->device;
  side.source = source;
  const runner::ComparedBuffers sim(r.result.buffers);
  const std::uint64_t ulps = r.request.lesson ? r.request.lesson->tolerance_ulps : 0;
  side.comparison = compare_run(*gpu, &r.result.trace, sim.data(), ulps);
  if (gpu->trace) {
    side.steps = GpuStepOutputs(r.result.trace, *gpu->trace);
    TraceStep step;
    for (std::size_t s = 0; s < r.result.trace.steps.size(); ++s) {
      const GpuStepOutputs::Lanes* lanes = side.steps.at(s);
      if (lanes == nullptr) continue;
      r.result.trace.steps.read(s, step);
      for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& theirs = (*lanes)[static_cast<std::size_t>(lane)];
        if (theirs && has_lane(step.participants, lane) && !has_lane(step.undefined, lane) &&
            *theirs != step.output[static_cast<std::size_t>(lane)]) {
          side.differing_steps.push_back(s);
          break;
        }
      }
    }
  }
  r.gpu = std::move(side);
}

}  // namespace

LoadedRun make_loaded_run(std::uint64_t generation, RunRequest request, course::LessonRun run,
                          double seconds, const LiveGpu& live) {
  LoadedRun r;
  static_cast<course::LessonRun&>(r) = std::move(run);
  r.generation = generation;
  r.request = std::move(request);
  // LessonRun points at the lesson and preset: the request's copies, which r keeps alive.
  r.lesson = r.request.lesson.get();
  r.preset = r.request.preset.get();
  const std::string& file = r.request.file.file;
  r.stamp = stamp_of(file);
  r.source_lines = read_lines(file);
  std::string text;
  for (const std::string& line : r.source_lines) text += line + "\n";
  r.kernels = runner::scan_kernels(text);
  if (r.result.status == runner::RunStatus::bad_input) {
    r.compiler_messages = parse_compiler_messages(r.result.details, file);
  }
  r.seconds = seconds;
  // Which of the trace's files is the kernel file (the runner names it by absolute path).
  std::error_code error;
  const fs::path wanted = fs::weakly_canonical(file, error);
  for (std::uint32_t f = 0; f < r.result.trace.files.size(); ++f) {
    std::error_code e;
    if (fs::weakly_canonical(r.result.trace.files[f], e) == wanted) r.kernel_file = f;
  }
  r.line_marks.assign(r.source_lines.size(), 0);
  const auto mark = [&](SourceLine where, std::uint8_t bit) {
    if (r.kernel_file && where.file == *r.kernel_file && where.line >= 1 &&
        where.line <= r.line_marks.size()) {
      r.line_marks[where.line - 1] |= bit;
    }
  };
  for (const SourceLine line : r.index.lines()) mark(line, kLineHasSteps);
  for (const Diagnostic& d : r.result.trace.diagnostics) {
    mark(d.where, kLineHasDiagnostic);
    if (d.other_where.line != 0) mark(d.other_where, kLineHasDiagnostic);  // a race's other line
  }
  load_gpu_side(r, live);
  return r;
}

LoadedRun run_and_load(std::uint64_t generation, const RunRequest& request, const LiveGpu& live) {
  const auto start = std::chrono::steady_clock::now();
  const auto since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (const std::optional<CaseRef>& c = request.exercise_case; c && c->exercise) {
    auto schedule = schedule_named(*c->exercise, c->seed, c->index, c->schedule);
    // The student's file runs in the grader's sandbox here too.
    const auto sandbox = course::grading_sandbox("auto");
    Expected<course::FailureDetail> explained =
        !schedule  ? Expected<course::FailureDetail>(schedule.error())
        : !sandbox ? Expected<course::FailureDetail>(sandbox.error())
                   : course::explain_case(*c->exercise, request.file.file, c->seed, c->index,
                                          *schedule, *sandbox, c->checked);
    return load_case(generation, request, std::move(explained), since_start());
  }
  course::LessonRun run;
  if (request.lesson && request.preset) {
    course::RunSettings settings;
    settings.policy = request.file.policy;
    settings.seed = request.file.seed;
    settings.timeout_seconds = request.file.timeout_seconds;
    settings.keep_initial_buffers = request.file.keep_initial_buffers;
    run = course::run_lesson(*request.lesson, *request.preset, settings);
  } else {
    run.result = runner::run_kernel_file(request.file);
    run.index = TraceIndex(run.result.trace);
  }
  return make_loaded_run(generation, request, std::move(run), since_start(), live);
}

LoadedRun load_case(std::uint64_t generation, RunRequest request,
                    Expected<course::FailureDetail> explained, double seconds) {
  course::LessonRun run;
  std::shared_ptr<course::FailureDetail> detail;
  if (!explained) {
    run.result.status = runner::RunStatus::bad_input;
    run.result.message = explained.error().message;
  } else {
    detail = std::make_shared<course::FailureDetail>(std::move(*explained));
    run.result = std::move(detail->submission);
    detail->submission = {};
    run.index = std::move(detail->index);
    detail->index = {};
    request.file.grid = detail->grade_case.grid;
    request.file.block = detail->grade_case.block;
  }
  if (request.exercise_case && request.exercise_case->exercise) {
    request.file.kernel = request.exercise_case->exercise->kernel;
  }
  LoadedRun loaded = make_loaded_run(generation, std::move(request), std::move(run), seconds);
  loaded.detail = std::move(detail);
  return loaded;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> finding_lines(const LoadedRun& run) {
  if (!run.kernel_file) return std::nullopt;
  for (const Diagnostic& d : run.result.trace.diagnostics) {
    if (!runner::is_memory_finding(d.kind) || d.where.line == 0 || d.where.file != *run.kernel_file) {
      continue;
    }
    std::uint32_t first = d.where.line, last = d.where.line;
    if (d.other_where.line != 0 && d.other_where.file == *run.kernel_file) {
      first = std::min(first, d.other_where.line);
      last = std::max(last, d.other_where.line);
    }
    return std::pair{first, last};
  }
  return std::nullopt;
}

std::optional<std::size_t> finding_step(const LoadedRun& run) {
  for (const Diagnostic& d : run.result.trace.diagnostics) {
    if (!runner::is_memory_finding(d.kind)) continue;
    if (d.step_before < 0) return std::nullopt;
    return static_cast<std::size_t>(d.step_before);
  }
  return std::nullopt;
}

}  // namespace warpsim::gui
