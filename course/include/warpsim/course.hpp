// Lessons as typed data (lessons/README.md is the format), run through the same path as
// `warpsim run`, narrated, asked about and checked. The terminal walkthrough, the GUI and the
// grader all load lessons here and nowhere else.
//
//   const Catalogue catalogue = load_catalogue(default_lessons_dir());
//   const Lesson* lesson = find_lesson(catalogue, "butterfly-reduction");
//   LessonRun run = run_lesson(*lesson, lesson->presets[0]);
//   for (const NarratedStep& s : run.narrative) {
//     StepView view = describe_step(run.result.trace, run.index, s.step);
//     if (s.note) show(s.note->text);
//   }
//   LessonCheck check = verify_lesson(*lesson, lesson->presets[0], recorded_gpu_run);
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/device_trace.hpp"
#include "warpsim/expected.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/step_view.hpp"
#include "warpsim/trace_index.hpp"

namespace warpsim::course {

// ---------------------------------------------------------------------------------------------
// The lesson, as lesson.json says it

// One launch of a kernel: the lesson's own, a preset's, or the reference's.
struct Launch {
  std::string kernel;
  Dim3 grid{}, block{};
  std::size_t shared_bytes = 0;
  std::vector<runner::ArgSpec> args;
  std::vector<std::string> arg_texts;  // as written, for display
};

struct Preset {
  std::string name;  // "default" for the lesson's own launch
  std::string summary;
  Launch launch;
  std::string reference_kernel;                   // in reference.cu
  std::vector<DiagnosticKind> diagnostics;        // the kinds this preset must report (none: none)
  bool differs_from_reference = false;            // a find-the-bug preset: it must differ
  std::optional<std::string> gpu_skip;            // why this preset must not run on a GPU
  // Paragraphs shown instead of the lesson's intro and outro (a find-the-bug preset says what
  // to look for in its own run); empty: the lesson's.
  std::vector<std::string> intro, outro;
};

enum class AskedValue : std::uint8_t { output, input, source };
std::string_view to_string(AskedValue value);

struct Note {
  std::string site;  // text occurring on exactly one line of kernel.cu
  std::uint32_t line = 0;            // that line (1-based)
  std::optional<std::uint32_t> pass;  // the n-th pass of the focus warp over it; none: every pass
  std::string text;
};

struct Question {
  std::string site;
  std::uint32_t line = 0;
  std::uint32_t pass = 1;
  std::vector<int> lanes;
  AskedValue value = AskedValue::output;
  std::string prompt;
};

struct Lesson {
  std::string id;        // the folder's name: "04-butterfly-reduction"
  std::string short_id;  // without the number: "butterfly-reduction"
  std::filesystem::path dir;
  std::string title, summary;
  std::vector<std::string> intro, outro;  // paragraphs
  std::vector<Preset> presets;            // presets[0] is "default", the lesson's own launch
  std::vector<std::size_t> check;         // buffer arguments compared with the reference and GPU
  std::uint64_t tolerance_ulps = 0;
  Dim3 reference_grid{1, 1, 1}, reference_block{1, 1, 1};
  WarpKey focus{};                        // the warp whose steps are narrated
  std::vector<Note> notes;
  std::vector<Question> questions;
  std::string source;                     // kernel.cu's text
  std::vector<std::string> ops;           // the CUDA intrinsics kernel.cu calls, in table order

  std::filesystem::path kernel_file() const { return dir / "kernel.cu"; }
  std::filesystem::path reference_file() const { return dir / "reference.cu"; }
  const Preset* preset(std::string_view name) const;  // nullptr when there is none
};

// What the walkthrough and the GUI show before the first step and after the last of `preset`.
inline const std::vector<std::string>& intro_of(const Lesson& lesson, const Preset& preset) {
  return preset.intro.empty() ? lesson.intro : preset.intro;
}
inline const std::vector<std::string>& outro_of(const Lesson& lesson, const Preset& preset) {
  return preset.outro.empty() ? lesson.outro : preset.outro;
}

// Reads and checks one lesson folder: the JSON's fields and types, every note's and question's
// site (exactly one line of kernel.cu), the presets' --arg specs. The error names the file and
// the field.
Expected<Lesson> load_lesson(const std::filesystem::path& dir);

struct Catalogue {
  std::vector<Lesson> lessons;  // in folder order
  std::vector<Error> problems;  // folders that did not load, each naming its folder
};
Catalogue load_catalogue(const std::filesystem::path& lessons_dir);
// By folder name ("04-butterfly-reduction"), short id ("butterfly-reduction") or number ("4").
const Lesson* find_lesson(const Catalogue& catalogue, std::string_view id);
// $WARPSIM_LESSONS_DIR, else the installed lessons beside the executable
// (<prefix>/share/warpsim/lessons), else the source tree's.
std::filesystem::path default_lessons_dir();
// Every folder lessons and exercises come from: default_lessons_dir(), then an instructor's own,
// from $WARPSIM_LESSONS (colon-separated) and then `extra` (--lessons DIR), absolute, each once.
std::vector<std::filesystem::path> lesson_folders(const std::vector<std::string>& extra = {});
// The lessons of every folder in `roots`: a folder that holds lesson.json is one lesson, any
// other a folder of lessons. A missing folder, a lesson that does not load or one whose name
// another folder took already is a problem, named.
Catalogue load_catalogue(const std::vector<std::filesystem::path>& roots);
// The lesson the walkthrough opens by default (the butterfly reduction).
inline constexpr std::string_view kDefaultLesson = "butterfly-reduction";

// ---------------------------------------------------------------------------------------------
// Running and narrating

struct RunSettings {
  ConvergencePolicy policy = ConvergencePolicy::maximal;
  std::uint64_t seed = 1;
  bool keep_initial_buffers = false;  // for a GPU run of the same launch
  double timeout_seconds = 60;
};

// The request that runs `launch` of `file`.
runner::KernelFileRequest request_for(const std::filesystem::path& file, const Launch& launch,
                                      const RunSettings& settings = {});

// One focus-warp step and what the lesson says there.
struct NarratedStep {
  std::size_t step = 0;        // index into the trace
  const Note* note = nullptr;  // the note for this pass, or the line's note without a pass
  // A note without a pass covers several steps: the narrative position of the first step it was
  // shown at (this step's own when it is the first).
  std::size_t note_first = 0;
  std::vector<const Question*> questions;
};

struct LessonRun {
  const Lesson* lesson = nullptr;
  const Preset* preset = nullptr;
  runner::KernelFileResult result;
  TraceIndex index;
  std::vector<NarratedStep> narrative;  // every step of the focus warp, in order
};

LessonRun run_lesson(const Lesson& lesson, const Preset& preset, const RunSettings& settings = {});

// The narrative for any step (of any warp): the note the lesson anchors to its line and pass
// when the step belongs to the focus warp; nullptr otherwise.
const Note* note_at(const LessonRun& run, std::size_t step);

// A predict question's answer for each lane, read from the trace.
struct Answer {
  int lane = 0;
  std::uint64_t bits = 0;
  ValueType type = ValueType::none;  // how the value reads (none: a lane mask)
  std::string text;                  // as the step view shows it
};
Expected<std::vector<Answer>> answers(const LessonRun& run, const Question& question);
// Whether what a learner typed is the answer: numerically equal for numbers (so "16", "16.0"
// and "0x10" all match 16), hex or decimal for masks.
bool is_correct(const Answer& answer, std::string_view typed);

// Predict mode: whether a row of a step's figure answers one of the step's `questions`, so that
// every view hides it until they are answered. What lanes received, the lanes they read,
// match_all's pred and the other side's row always do (from any of them the asked values follow);
// what lanes passed in does when a question asks for it. With no lesson question (a free guess
// at any lane's result) the same rows as for an output question.
bool row_answers(RowKind row, const std::vector<const Question*>& questions);

// Predict mode: the lanes of `row` that stay hidden until the step's `questions` are answered.
// A row that answers them (row_answers) is hidden whole, except the inputs, which the learner
// reasons from: there only the lanes asked about, and every lane that holds the same value as one
// of them (a broadcast's or a reduction's lanes would show the answer). A row of 0s and 1s (a
// vote's predicates, a flag) is hidden whole: the others' would leave one value to guess.
LaneMask hidden_lanes(const StepRow& row, const std::vector<const Question*>& questions);
// The narrated step that follows `step` when one of its questions asks what lanes pass in, else
// null: `step`'s after row and its note give that answer away, so predict mode holds them back
// until the following step's questions are answered.
const NarratedStep* asks_inputs_next(std::span<const NarratedStep> narrative, std::size_t step);

// ---------------------------------------------------------------------------------------------
// Recorded GPU runs (lessons/<id>/gpu/<preset>.json.gz)

std::filesystem::path gpu_record_path(const Lesson& lesson, const Preset& preset);
// The recorded run; an error of kind `file` when none was recorded.
Expected<GpuRun> load_gpu_record(const Lesson& lesson, const Preset& preset);
Expected<void> save_gpu_record(const Lesson& lesson, const Preset& preset, const GpuRun& run);

// ---------------------------------------------------------------------------------------------
// Checking a lesson (warpsim lesson ID --verify)

struct LessonCheck {
  std::string preset;
  runner::RunStatus status = runner::RunStatus::bad_input;
  std::string message;                        // the run's own message when it did not complete
  std::vector<BufferComparison> reference;    // each checked buffer against the reference
  std::string reference_problem;              // the reference did not run, or differs wrongly
  std::vector<std::string> diagnostic_problems;  // expected kinds missing, unexpected kinds present
  std::vector<std::string> text_problems;        // notes or questions that anchor to no step
  std::optional<GpuComparison> gpu;              // against the recorded (or live) GPU run
  std::string gpu_note;                          // why there is no GPU comparison
  bool passed() const;
};

// Runs the preset and its reference, checks the outputs, the diagnostics, the narrative's anchors
// (default preset) and, when `gpu` is given, every checked buffer and traced step against it.
LessonCheck verify_lesson(const Lesson& lesson, const Preset& preset, const GpuRun* gpu);

}  // namespace warpsim::course
