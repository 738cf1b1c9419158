// A lesson's preset run like any kernel file, then narrated: its notes and questions placed on
// the focus warp's steps by source line and pass.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "warpsim/course.hpp"
#include "warpsim/step_view.hpp"

namespace warpsim::course {

runner::KernelFileRequest request_for(const std::filesystem::path& file, const Launch& launch,
                                      const RunSettings& settings) {
  runner::KernelFileRequest r;
  r.file = file.string();
  r.kernel = launch.kernel;
  r.grid = launch.grid;
  r.block = launch.block;
  r.args = launch.args;
  r.shared_bytes = launch.shared_bytes;
  r.policy = settings.policy;
  r.seed = settings.seed;
  r.timeout_seconds = settings.timeout_seconds;
  r.keep_initial_buffers = settings.keep_initial_buffers;
  return r;
}

namespace {

// The note for (line, pass): one written for that pass, else one for the line without a pass.
const Note* find_note(const Lesson& lesson, std::uint32_t line, std::uint32_t pass) {
  const Note* any_pass = nullptr;
  for (const Note& note : lesson.notes) {
    if (note.line != line) continue;
    if (note.pass == pass) return &note;
    if (!note.pass && any_pass == nullptr) any_pass = &note;
  }
  return any_pass;
}

// Whether `step` of the trace belongs to the lesson's kernel file (not a header it includes).
bool in_kernel_file(const LessonRun& run, SourceLine where) {
  const std::vector<std::string>& files = run.result.trace.files;
  if (where.file >= files.size()) return false;
  std::error_code error;
  return std::filesystem::equivalent(files[where.file], run.lesson->kernel_file(), error);
}

}  // namespace

LessonRun run_lesson(const Lesson& lesson, const Preset& preset, const RunSettings& settings) {
  LessonRun run;
  run.lesson = &lesson;
  run.preset = &preset;
  run.result = runner::run_kernel_file(request_for(lesson.kernel_file(), preset.launch, settings));
  run.index = TraceIndex(run.result.trace);
  for (const std::size_t step : run.index.steps_of(lesson.focus)) {
    NarratedStep narrated;
    narrated.step = step;
    narrated.note = note_at(run, step);
    narrated.note_first = run.narrative.size();
    for (std::size_t k = 0; k < run.narrative.size(); ++k) {
      if (narrated.note != nullptr && run.narrative[k].note == narrated.note) {
        narrated.note_first = k;
        break;
      }
    }
    const StepInfo& info = run.index.info(step);
    if (in_kernel_file(run, info.where)) {
      for (const Question& q : lesson.questions) {
        if (q.line == info.where.line && q.pass == info.pass) narrated.questions.push_back(&q);
      }
    }
    run.narrative.push_back(std::move(narrated));
  }
  return run;
}

const Note* note_at(const LessonRun& run, std::size_t step) {
  if (step >= run.index.step_count()) return nullptr;
  const StepInfo& info = run.index.info(step);
  if (info.warp != run.lesson->focus || !in_kernel_file(run, info.where)) return nullptr;
  return find_note(*run.lesson, info.where.line, info.pass);
}

Expected<std::vector<Answer>> answers(const LessonRun& run, const Question& question) {
  const std::string where = run.lesson->id + ": question \"" + question.prompt + "\": ";
  std::optional<std::size_t> step;
  for (const NarratedStep& s : run.narrative) {
    for (const Question* q : s.questions) {
      if (q == &question) step = s.step;
    }
  }
  if (!step) {
    return fail(where + "the focus warp has no pass " + std::to_string(question.pass) +
                " over line " + std::to_string(question.line));
  }
  const StepView view = describe_step(run.result.trace, run.index, *step);
  if (question.value == AskedValue::source && !is_shuffle(view.op)) {
    return fail(where + "asks for a source lane at " + view.name + ", which is no shuffle");
  }
  const TraceStep s = run.result.trace.steps.at(*step);
  std::vector<Answer> out;
  for (const int lane : question.lanes) {
    if (!has_lane(s.participants, lane)) {
      return fail(where + "lane " + std::to_string(lane) + " does not take part in that step");
    }
    Answer a;
    a.lane = lane;
    const auto at = static_cast<std::size_t>(lane);
    const RowKind kind = question.value == AskedValue::input  ? RowKind::input
                         : question.value == AskedValue::source ? RowKind::source
                                                                : RowKind::output;
    switch (question.value) {
      case AskedValue::output:
        a.bits = s.output[at];
        a.type = result_kind(s.op) == ResultKind::lane_mask ? ValueType::none
                 : result_kind(s.op) == ResultKind::value   ? s.type
                                                            : ValueType::i32;
        break;
      case AskedValue::input:
        a.bits = s.input[at];
        a.type = intrinsic_for(s.op).family == IntrinsicFamily::vote ? ValueType::i32 : s.type;
        break;
      case AskedValue::source:
        a.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(s.src_lane[at]));
        a.type = ValueType::i32;
        break;
    }
    for (const StepRow& row : view.rows) {
      if (row.kind == kind) a.text = row.cells[at].text;
    }
    out.push_back(std::move(a));
  }
  return out;
}

namespace {

std::optional<double> number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    std::uint64_t bits = 0;
    const auto r = std::from_chars(text.data() + 2, text.data() + text.size(), bits, 16);
    if (r.ec != std::errc{} || r.ptr != text.data() + text.size()) return std::nullopt;
    return static_cast<double>(bits);
  }
  double value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec != std::errc{} || r.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

double value_of(const Answer& a) {
  switch (a.type) {
    case ValueType::f32: {
      float f = 0;
      const auto bits = static_cast<std::uint32_t>(a.bits);
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    case ValueType::f64: {
      double d = 0;
      std::memcpy(&d, &a.bits, sizeof d);
      return d;
    }
    case ValueType::i32:
      return static_cast<std::int32_t>(a.bits);
    case ValueType::i64:
      return static_cast<double>(static_cast<std::int64_t>(a.bits));
    case ValueType::u32:
    case ValueType::none:
      return static_cast<std::uint32_t>(a.bits);
    default:
      return static_cast<double>(a.bits);
  }
}

}  // namespace

bool is_correct(const Answer& answer, std::string_view typed) {
  const std::optional<double> given = number(typed);
  if (!given) return false;
  const double expected = value_of(answer);
  if (std::isnan(expected)) return std::isnan(*given);
  if (answer.type == ValueType::f32) {
    // A float typed with fewer digits than it has: as the learner would round it.
    return static_cast<float>(*given) == static_cast<float>(expected);
  }
  return *given == expected;
}

bool row_answers(RowKind row, const std::vector<const Question*>& questions) {
  switch (row) {
    case RowKind::output:
    case RowKind::source:
    case RowKind::predicate:
    case RowKind::other:
    case RowKind::after: return true;
    case RowKind::input:
      return std::any_of(questions.begin(), questions.end(),
                         [](const Question* q) { return q->value == AskedValue::input; });
    case RowKind::argument:
    case RowKind::width: return false;
  }
  return true;
}

const NarratedStep* asks_inputs_next(std::span<const NarratedStep> narrative, std::size_t step) {
  for (std::size_t i = 0; i + 1 < narrative.size(); ++i) {
    if (narrative[i].step != step) continue;
    const NarratedStep& next = narrative[i + 1];
    const bool asks = std::any_of(next.questions.begin(), next.questions.end(),
                                  [](const Question* q) { return q->value == AskedValue::input; });
    return asks ? &next : nullptr;
  }
  return nullptr;
}

LaneMask hidden_lanes(const StepRow& row, const std::vector<const Question*>& questions) {
  if (!row_answers(row.kind, questions)) return 0;
  if (row.kind != RowKind::input) return ~LaneMask{0};
  LaneMask asked = 0;
  for (const Question* q : questions) {
    if (q->value != AskedValue::input) continue;
    for (const int lane : q->lanes) {
      if (lane >= 0 && lane < kWarpSize) asked |= lane_bit(lane);
    }
  }
  std::vector<std::string_view> answers;
  bool flags = true;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::string& text = row.cells[static_cast<std::size_t>(lane)].text;
    if (text.empty()) continue;
    const std::optional<double> n = number(text);
    flags = flags && n && (*n == 0 || *n == 1);
    if (has_lane(asked, lane)) answers.push_back(text);
  }
  if (flags) return ~LaneMask{0};
  LaneMask hidden = asked;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::string& text = row.cells[static_cast<std::size_t>(lane)].text;
    if (std::find(answers.begin(), answers.end(), text) != answers.end()) hidden |= lane_bit(lane);
  }
  return hidden;
}

}  // namespace warpsim::course
