// The narrative: the current step in words (model/narrate.hpp), its diagnostics, how the run
// ended; at the warp's last step, the buffers as the kernel left them. A lesson's own notes join
// these once lessons load through the course layer.
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "model/palette.hpp"
#include "views/views.hpp"

namespace warpsim::gui {
namespace {

// "[0, 1, 2, ...]": a buffer's first elements as a learner reads them.
std::string buffer_text(const runner::OutputBuffer& b, std::size_t limit) {
  const std::size_t size = runner::element_size(b.type);
  std::string text = "[";
  std::size_t n = 0;
  for (std::size_t at = 0; at + size <= b.bytes.size(); at += size, ++n) {
    if (n == limit) {
      text += ", ... (" + std::to_string(b.bytes.size() / size) + " in all)";
      break;
    }
    std::uint64_t bits = 0;
    std::memcpy(&bits, b.bytes.data() + at, size);
    const runner::ShownElement shown = runner::shown_element(b.type, bits);
    text += (n > 0 ? ", " : "") + format_value(shown.bits, shown.type);
  }
  return text + "]";
}

// What the grading said of the case shown: its verdict, why the view starts where it does, and
// its elements around the first wrong one (inputs, expected, got; wrong ones marked).
void grading_case(const Model& m, const Ui& ui, Commands& out) {
  const LoadedRun& run = *m.run;
  const CaseRef& ref = *run.request.exercise_case;
  const course::CaseResult* verdict = nullptr;
  if (m.exercise && m.exercise->result && ref.index < m.exercise->result->cases.size()) {
    verdict = &m.exercise->result->cases[ref.index];
  }
  ImGui::PushFont(ui.fonts.title);
  if (verdict != nullptr && !verdict->passed()) {
    ImGui::TextColored(colour4(okabe_ito::vermillion), "Case %s fails", ref.name.c_str());
  } else {
    ImGui::TextColored(colour4(okabe_ito::bluish_green), "Case %s passes", ref.name.c_str());
  }
  ImGui::PopFont();
  ImGui::SameLine();
  if (ImGui::SmallButton("Back to the task")) out.push_back(CloseCase{});
  if (verdict != nullptr) {
    ImGui::TextDisabled("%s%s%s", verdict->launch.c_str(), ref.schedule.empty() ? "" : " · run ",
                        ref.schedule.c_str());
    if (!verdict->message.empty()) ImGui::TextWrapped("%s", verdict->message.c_str());
    if (changed_since_graded(*m.exercise)) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour4(okabe_ito::orange));
      ImGui::TextWrapped("That verdict is of the file as it was graded; it has changed since (the "
                         "steps below are of the file as it is now): grade again.");
      ImGui::PopStyleColor();
    }
  }
  if (!run.detail) return;
  const course::FailureDetail& d = *run.detail;
  if (!d.step_reason.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(kPalette.faint_ink));
    ImGui::TextWrapped("Why this step: %s.", d.step_reason.c_str());
    ImGui::PopStyleColor();
  }
  if (d.checked && !run.result.trace.diagnostics.empty()) {
    ImGui::TextWrapped("This run was made under the memory checks: the lines of their findings "
                       "are marked ! in the source, and the Diagnostics tab lists them.");
  }
  if (d.table.empty()) return;
  std::size_t columns = 0;
  for (const course::ElementRow& r : d.table) columns = std::max(columns, r.cells.size());
  const float row_h = ImGui::GetTextLineHeightWithSpacing() + 2;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg;
  const float height =
      row_h * static_cast<float>(d.table.size() + 1) + ImGui::GetStyle().ScrollbarSize;
  if (ImGui::BeginTable("##elements", static_cast<int>(columns + 1), flags, ImVec2(0, height))) {
    ImGui::TableSetupScrollFreeze(1, 0);
    ImGui::PushFont(ui.fonts.small);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("element");
    const std::uint64_t first = d.table.front().first;
    for (std::size_t k = 0; k < columns; ++k) {
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%llu", static_cast<unsigned long long>(first + k));
    }
    ImGui::PopFont();
    ImGui::PushFont(ui.fonts.value);
    for (const course::ElementRow& r : d.table) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.label.c_str());
      for (std::size_t k = 0; k < r.cells.size(); ++k) {
        ImGui::TableNextColumn();
        const bool wrong = k < r.differs.size() && r.differs[k];
        ImGui::TextColored(colour4(wrong ? okabe_ito::vermillion
                                   : r.kind == course::ElementRow::Kind::input ? kPalette.faint_ink
                                                                               : kPalette.ink),
                           "%s", r.cells[k].c_str());
      }
    }
    ImGui::PopFont();
    ImGui::EndTable();
  }
}

// An exercise with no case open: what to do, and what the last grading found.
void exercise_guide(const Model& m) {
  const ExerciseState& e = *m.exercise;
  const std::string name = std::filesystem::path(e.file).filename().string();
  if (e.starter) {
    ImGui::TextWrapped("1. Copy the starter (the button in the Exercise tab), then edit the copy "
                       "in your own editor and save it.");
  } else {
    ImGui::TextWrapped("1. Edit %s in your own editor and save it.", name.c_str());
  }
  ImGui::TextWrapped(
      "2. Grade it: the Grade button in the Exercise tab, or G. Each case runs in "
      "the simulator under several block and warp orders and convergence policies, "
      "against the reference solution.");
  ImGui::TextWrapped(
      "3. A failing case opens lane by lane: the row 'expected' holds what the "
      "reference solution's lanes received at the same call.");
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, colour4(kPalette.faint_ink));
  ImGui::TextWrapped("Kernel: %s", e.exercise->signature.c_str());
  ImGui::TextWrapped("%zu cases, seed %llu; %zu hint%s.", e.case_count,
                     static_cast<unsigned long long>(e.seed), e.exercise->hints.size(),
                     e.exercise->hints.size() == 1 ? "" : "s");
  ImGui::PopStyleColor();
}

}  // namespace

void draw_narrative_view(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  begin_panel("##narrative", ui.layout.narrative);
  panel_heading(ui, "What happened");
  if (!m.run && m.exercise && !m.wanted && !m.running) {
    exercise_guide(m);
    ImGui::End();
    return;
  }
  if (m.run && m.run->request.exercise_case) grading_case(m, ui, out);
  if (!m.run) {
    ImGui::TextDisabled("The kernel is being compiled and run.");
    ImGui::End();
    return;
  }
  const runner::KernelFileResult& r = m.run->result;
  if (r.status != runner::RunStatus::completed) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(okabe_ito::vermillion));
    const std::string first = readable(r.trace, r.message.substr(0, r.message.find('\n')));
    ImGui::TextWrapped("%s: %s", std::string(runner::to_string(r.status)).c_str(), first.c_str());
    ImGui::PopStyleColor();
  }
  const course::Lesson* lesson = m.run->lesson;
  const StepView* s = m.cache.view ? &*m.cache.view : nullptr;
  const bool focus = lesson != nullptr && s != nullptr && s->warp == lesson->focus;
  if (lesson != nullptr) {
    ImGui::PushFont(ui.fonts.title);
    ImGui::TextWrapped("%s", lesson->title.c_str());
    ImGui::PopFont();
    if (m.run->preset != nullptr && m.run->preset->name != "default") {
      ImGui::TextDisabled("preset %s: %s", m.run->preset->name.c_str(), m.run->preset->summary.c_str());
    }
  }
  if (m.run->gpu && !m.run->gpu->comparison.matches()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(kPalette.differs));
    ImGui::TextWrapped("! The GPU (%s) does not agree with the simulator: see the GPU tab.",
                       provenance(m.run->gpu->device).c_str());
    ImGui::PopStyleColor();
  }
  if (s != nullptr) {
    const course::Note* note = current_note(m, v);
    if (note != nullptr && outputs_hidden(m, v)) {
      // The note tells what the lanes receive: it waits until the guesses are checked.
      ImGui::PushFont(ui.fonts.title);
      ImGui::TextWrapped("Step %u of %u", s->position + 1, s->warp_steps);
      ImGui::PopFont();
      ImGui::TextDisabled("The lesson's note for this step shows once your guesses are checked.");
    } else if (note != nullptr) {
      ImGui::PushFont(ui.fonts.title);
      ImGui::TextWrapped("Step %u of %u", s->position + 1, s->warp_steps);
      ImGui::PopFont();
      ImGui::TextWrapped("%s", note->text.c_str());
      ImGui::Spacing();
    } else if (s->waits) {
      ImGui::PushFont(ui.fonts.title);
      ImGui::TextWrapped("After step %u of %u: %s", s->warp_steps, s->warp_steps, s->name.c_str());
      ImGui::PopFont();
    } else {
      ImGui::PushFont(ui.fonts.title);
      ImGui::TextWrapped("Step %u of %u: %s", s->position + 1, s->warp_steps, s->name.c_str());
      ImGui::PopFont();
    }
    if (focus && s->position == 0 &&
        ImGui::CollapsingHeader("Introduction", ImGuiTreeNodeFlags_DefaultOpen)) {
      const auto& intro = m.run->preset ? course::intro_of(*lesson, *m.run->preset) : lesson->intro;
      for (const std::string& p : intro) ImGui::TextWrapped("%s", p.c_str());
    }
    for (const course::Question* q : current_questions(m, v)) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour4(okabe_ito::blue));
      ImGui::TextWrapped("Question (Predict tab): %s", q->prompt.c_str());
      ImGui::PopStyleColor();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(kPalette.faint_ink));
    if (s->waits) {
      ImGui::TextWrapped("%s", s->contract.c_str());
    } else {
      ImGui::TextWrapped("%s: %s  (%s, pass %u)", s->name.c_str(), s->contract.c_str(),
                         s->site.c_str(), s->pass);
    }
    ImGui::PopStyleColor();
    if (!outputs_hidden(m, v)) {
      for (const std::string& line : m.cache.narrative) ImGui::TextWrapped("%s", line.c_str());
    }
    for (const std::string& d : outputs_hidden(m, v) ? std::vector<std::string>{}
                                                      : m.cache.diagnostic_lines) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour4(okabe_ito::vermillion));
      ImGui::TextWrapped("! %s", d.c_str());
      ImGui::PopStyleColor();
    }
    if (s->has_other && s->other_differs != 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour4(kPalette.differs));
      ImGui::TextWrapped("! On the GPU, %s received other values here (row 'gpu', marked !).",
                         format_lanes(s->other_differs).c_str());
      ImGui::PopStyleColor();
    }
    if (outputs_hidden(m, v)) {
      ImGui::Spacing();
      ImGui::PushStyleColor(ImGuiCol_Text, colour4(okabe_ito::blue));
      ImGui::TextWrapped("Predict mode: what each lane receives is hidden. Guess in the Predict tab.");
      ImGui::PopStyleColor();
    }
    if (s->position + 1 == s->warp_steps && r.status == runner::RunStatus::completed &&
        !ending_hidden(m, v)) {
      ImGui::Spacing();
      if (focus) {
        const auto& outro = m.run->preset ? course::outro_of(*lesson, *m.run->preset) : lesson->outro;
        for (const std::string& p : outro) ImGui::TextWrapped("%s", p.c_str());
      }
      ImGui::TextDisabled("After the kernel:");
      for (const runner::OutputBuffer& b : r.buffers) {
        ImGui::TextWrapped("%s = %s", runner::buffer_name(b.arg, b.field).c_str(),
                           buffer_text(b, 64).c_str());
      }
    }
  }
  if (!r.trace.printf_records.empty()) {
    ImGui::Spacing();
    ImGui::TextDisabled("printf (%zu):", r.trace.printf_records.size());
    std::size_t shown = 0;
    for (const PrintfRecord& p : r.trace.printf_records) {
      if (++shown > 20) break;
      ImGui::TextWrapped("block %llu thread %u: %s", static_cast<unsigned long long>(p.block),
                         p.thread, p.text.c_str());
    }
  }
  ImGui::End();
}

}  // namespace warpsim::gui
