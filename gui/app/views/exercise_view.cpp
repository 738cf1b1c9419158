// An exercise in the GUI. The Exercise tab: the file graded (and whether it changed since), the
// Grade button, the cases as they are graded and then their verdicts (a click opens one lane by
// lane), the score, the first failure's message, the hints asked for, the other exercises. The
// task: the exercise's statement, where the lane view goes while no case is open.
#include <imgui.h>

#include <filesystem>

#include "model/palette.hpp"
#include "model/text_blocks.hpp"
#include "views/shortcuts.hpp"
#include "views/views.hpp"

namespace warpsim::gui {
namespace {

void coloured_wrapped(Rgba colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour4(colour));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void exercise_list(const Model& m, Commands& out) {
  if (!m.exercises || m.exercises->exercises.empty()) {
    ImGui::TextWrapped("No exercises found (looked in %s).",
                       course::default_lessons_dir().string().c_str());
    return;
  }
  const std::string open = m.exercise ? m.exercise->exercise->id : "";
  for (const course::Exercise& e : m.exercises->exercises) {
    ImGui::PushID(e.id.c_str());
    const std::string label = e.lesson.substr(0, 2) + "  " + e.title;
    if (ImGui::Selectable(label.c_str(), e.id == open)) out.push_back(OpenExercise{e.id, ""});
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s\n(opens its starter; warpsim gui --exercise %s FILE.cu grades yours)",
                        e.summary.c_str(), e.id.c_str());
    }
    ImGui::PopID();
  }
  for (const Error& problem : m.exercises->problems) {
    coloured_wrapped(okabe_ito::vermillion, problem.message);
  }
}

std::string ago(double seconds) {
  if (seconds < 1) return "just now";
  if (seconds < 120) return std::to_string(static_cast<int>(seconds)) + " s ago";
  return std::to_string(static_cast<int>(seconds / 60)) + " min ago";
}

// The file graded, and whether the grading shown is of the file as it is now.
void file_line(const ExerciseState& e, const Ui& ui, Commands& out) {
  const std::string name = std::filesystem::path(e.file).filename().string();
  ImGui::TextDisabled("Grading");
  ImGui::SameLine();
  ImGui::TextUnformatted(name.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.file.c_str());
  ImGui::PushFont(ui.fonts.small);
  if (e.starter) {
    coloured_wrapped(kPalette.faint_ink,
                     "This is the exercise's own starter: grade your own copy of it (then edit "
                     "the copy in your editor).");
    const std::string copy = "Copy it to " + e.exercise->kernel + ".cu and grade that";
    if (ImGui::SmallButton(copy.c_str())) out.push_back(UseOwnCopy{});
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Into the folder warpsim gui was started in (a file already there is "
                        "graded, not overwritten). Later: warpsim gui --exercise %s %s.cu",
                        e.exercise->id.c_str(), e.exercise->kernel.c_str());
    }
  }
  if (!e.stamp.exists) {
    coloured_wrapped(okabe_ito::vermillion, "The file is gone: " + e.file);
  } else if (changed_since_graded(e)) {
    coloured_wrapped(okabe_ito::orange,
                     "Changed on disk since it was graded" +
                         (e.changed_at >= 0 ? " (" + ago(ui.now - e.changed_at) + ")" : "") +
                         ": grade again to see how it does now.");
  } else if (e.result) {
    coloured_wrapped(kPalette.faint_ink, "Unchanged since it was graded.");
  } else if (e.changed_at >= 0) {
    coloured_wrapped(kPalette.faint_ink, "Changed on disk " + ago(ui.now - e.changed_at) + ".");
  }
  ImGui::PopFont();
}

// One row per case: its verdict and its headline; a click opens it lane by lane.
void case_rows(const ExerciseState& e, Commands& out) {
  const bool graded = e.result && !(e.grading || e.wanted);
  const std::vector<course::CaseResult>& cases = graded ? e.result->cases : e.progress;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const course::CaseResult& c = cases[i];
    ImGui::PushID(static_cast<int>(i));
    const bool passed = c.passed();
    const Rgba tone = passed                                      ? okabe_ito::bluish_green
                      : c.incomplete() ? kPalette.faint_ink
                                       : okabe_ito::vermillion;
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(tone));
    // Cut to the panel with "…" (the tooltip has all of it).
    const std::string label =
        fitted(std::string(passed ? "pass  " : c.incomplete() ? "skip  " : "FAIL  ") + c.name +
                   (passed ? "" : "  " + c.headline),
               ImGui::GetContentRegionAvail().x);
    const bool open = graded && e.open_case == i;
    if (ImGui::Selectable(label.c_str(), open) && graded) out.push_back(OpenCase{i});
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s\n%s%s%s\n(click: step through it lane by lane)", c.launch.c_str(),
                        c.summary.c_str(), c.message.empty() ? "" : "\n", c.message.c_str());
    }
    ImGui::PopID();
  }
}

void hints(const ExerciseState& e, Commands& out) {
  const std::size_t n = e.exercise->hints.size();
  if (n == 0) return;
  for (std::size_t k = 0; k < e.hints && k < n; ++k) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(okabe_ito::blue));
    ImGui::TextWrapped("Hint %zu: %s", k + 1, e.exercise->hints[k].c_str());
    ImGui::PopStyleColor();
  }
  if (e.hints < n) {
    const std::string label = e.hints == 0 ? "Show a hint (" + std::to_string(n) + ")"
                                           : "Next hint (" + std::to_string(e.hints + 1) + " of " +
                                                 std::to_string(n) + ")";
    if (ImGui::SmallButton(label.c_str())) out.push_back(ShowHint{});
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Hints unlock one at a time (%s)", keys_of(Action::hint));
  }
}

}  // namespace

void draw_exercise_view(const Model& m, const ViewState&, const Ui& ui, Commands& out) {
  ImGui::BeginChild("##exercise");
  if (!m.exercise) {
    ImGui::TextWrapped(
        "Pick an exercise: its starter opens, to grade here. Your own file: warpsim "
        "gui --exercise ID FILE.cu");
    ImGui::Separator();
    exercise_list(m, out);
    ImGui::EndChild();
    return;
  }
  const ExerciseState& e = *m.exercise;
  ImGui::PushFont(ui.fonts.title);
  ImGui::TextWrapped("%s", e.exercise->title.c_str());
  ImGui::PopFont();
  file_line(e, ui, out);

  const bool grading = e.grading || e.wanted;
  ImGui::BeginDisabled(grading);
  if (ImGui::Button(grading ? "Grading ..." : "Grade")) out.push_back(Grade{});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Grade the file as it is on disk now (%s)", keys_of(Action::grade));
  }
  ImGui::SameLine();
  const bool passed = e.result && e.result->passed() && !grading;
  const Rgba score_tone = grading     ? okabe_ito::blue
                          : !e.result ? kPalette.faint_ink
                          : passed    ? okabe_ito::bluish_green
                                      : okabe_ito::vermillion;
  ImGui::PushFont(ui.fonts.title);
  ImGui::TextColored(colour4(score_tone), "%s", score_text(e).c_str());
  ImGui::PopFont();
  if (grading && e.case_count > 0) {
    const float done = static_cast<float>(e.progress.size()) / static_cast<float>(e.case_count);
    const std::string text =
        std::to_string(e.progress.size()) + " of " + std::to_string(e.case_count) + " cases";
    ImGui::ProgressBar(done, ImVec2(-1, 0), text.c_str());
  }
  if (e.result && !grading && !e.result->message.empty()) {
    // It could not be graded: why (the source panel marks the compiler's lines).
    coloured_wrapped(okabe_ito::vermillion, e.result->message);
  }
  case_rows(e, out);
  if (e.result && !grading) {
    if (const auto first = first_failing_case(e)) {
      ImGui::Spacing();
      ImGui::TextDisabled("First failure:");
      coloured_wrapped(kPalette.ink, e.result->cases[*first].message);
    }
  }
  ImGui::Spacing();
  hints(e, out);
  if (m.run && m.run->request.exercise_case) {
    if (ImGui::SmallButton("Back to the task")) out.push_back(CloseCase{});
  }
  ImGui::Spacing();
  if (ImGui::CollapsingHeader("Other exercises")) exercise_list(m, out);
  ImGui::EndChild();
}

void draw_exercise_task(const Model& m, const Ui& ui) {
  const ExerciseState& e = *m.exercise;
  if (e.result && e.result->passed() && !(e.grading || e.wanted)) {
    ImGui::PushFont(ui.fonts.title);
    ImGui::TextColored(colour4(okabe_ito::bluish_green), "Every case passes: %s",
                       score_text(e).c_str());
    ImGui::PopFont();
    ImGui::TextDisabled(
        "Graded %s with seed %llu in %.1f s. Click a case in the Exercise tab to "
        "step through it.",
        std::filesystem::path(e.file).filename().string().c_str(),
        static_cast<unsigned long long>(e.result->seed), e.result->seconds);
    ImGui::Separator();
  } else if (e.result && !e.compiler_messages.empty()) {
    ImGui::PushFont(ui.fonts.title);
    ImGui::TextColored(colour4(okabe_ito::vermillion), "The file does not compile.");
    ImGui::PopFont();
    ImGui::PushFont(ui.fonts.value);
    const std::string& details = e.result->details;
    ImGui::TextWrapped("%s",
                       details.substr(0, std::min<std::size_t>(details.size(), 3000)).c_str());
    ImGui::PopFont();
    ImGui::Separator();
  }
  for (const TextBlock& b : text_blocks(e.statement)) {
    switch (b.kind) {
      case TextBlock::Kind::heading:
        if (b.level > 1) ImGui::Spacing();
        ImGui::PushFont(ui.fonts.title);
        ImGui::TextWrapped("%s", b.text.c_str());
        ImGui::PopFont();
        break;
      case TextBlock::Kind::paragraph:
        ImGui::TextWrapped("%s", b.text.c_str());
        break;
      case TextBlock::Kind::bullet:
        ImGui::Bullet();
        ImGui::TextWrapped("%s", b.text.c_str());
        break;
      case TextBlock::Kind::code:
        ImGui::PushFont(ui.fonts.value);
        ImGui::Indent();
        ImGui::TextColored(colour4(okabe_ito::blue), "%s", b.text.c_str());
        ImGui::Unindent();
        ImGui::PopFont();
        break;
    }
  }
}

}  // namespace warpsim::gui
