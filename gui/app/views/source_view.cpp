// The kernel's source: the current step's line highlighted (and scrolled to when the cursor
// moves), a mark on every line that made warp-level calls and on lines with diagnostics; a click
// on a marked line goes to the warp's next pass over it. A failed compile lists the compiler's
// messages first and marks their lines. An exercise with no case open shows the file graded as it
// is on disk, with the last grading's compiler messages.
#include <imgui.h>

#include <filesystem>

#include "model/palette.hpp"
#include "views/views.hpp"

namespace warpsim::gui {
namespace {

// What the panel lists: the file's lines, marks per line, the compiler's messages, the line of
// the current step (0: none).
struct SourceText {
  const std::string& file;
  const std::vector<std::string>& lines;
  const std::vector<std::uint8_t>* marks;
  const std::vector<CompilerMessage>& messages;
  std::uint32_t current = 0;
  // Where to scroll now, if anywhere (0: nowhere), and the run this scroll is for.
  std::uint32_t scroll_to = 0;
  std::uint64_t generation = 0;
};

void draw_lines(const SourceText& text, const ViewState& v, const Ui& ui, Commands& out);

}  // namespace

void draw_source_view(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  begin_panel("##source", ui.layout.source, ImGuiWindowFlags_HorizontalScrollbar);
  if (!m.run && m.exercise && !m.wanted && !m.running) {
    const ExerciseState& e = *m.exercise;
    const std::string heading =
        "Source · " + std::filesystem::path(e.file).filename().string() + " (the file graded)";
    panel_heading(ui, heading.c_str());
    draw_lines({e.file, e.source_lines, nullptr, e.compiler_messages, 0}, v, ui, out);
    ImGui::End();
    return;
  }
  if (!m.run) {
    panel_heading(ui, "Source");
    ImGui::End();
    return;
  }
  const LoadedRun& run = *m.run;
  const std::string heading =
      "Source · " + std::filesystem::path(run.request.file.file).filename().string();
  panel_heading(ui, heading.c_str());
  std::uint32_t current = 0;
  if (m.cache.view && run.kernel_file && m.cache.view->where.file == *run.kernel_file) {
    current = m.cache.view->where.line;
  }
  // A run's first look opens on the lines its memory finding names (a race is between them);
  // after that the panel follows the step.
  std::uint32_t scroll_to = current != 0 && v.source_scrolled_for != v.step ? current : 0;
  if (run.generation != v.source_scrolled_run) {
    if (const auto lines = finding_lines(run)) scroll_to = (lines->first + lines->second) / 2;
  }
  draw_lines({run.request.file.file, run.source_lines, &run.line_marks, run.compiler_messages,
              current, scroll_to, run.generation},
             v, ui, out);
  ImGui::End();
}

namespace {

void draw_lines(const SourceText& text, const ViewState& v, const Ui& ui, Commands& out) {
  if (text.lines.empty()) {
    ImGui::TextColored(colour4(okabe_ito::vermillion), "cannot read %s", text.file.c_str());
    return;
  }
  // The compiler's complaints, each with its line.
  for (const CompilerMessage& c : text.messages) {
    const Rgba tone = c.severity == "error" ? okabe_ito::vermillion
                      : c.severity == "warning" ? okabe_ito::orange : kPalette.faint_ink;
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(tone));
    ImGui::TextWrapped("line %u: %s: %s", c.line, c.severity.c_str(), c.text.c_str());
    ImGui::PopStyleColor();
  }
  if (!text.messages.empty()) ImGui::Separator();

  const std::uint32_t current = text.current;
  ImGui::BeginChild("##lines");
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  if (text.scroll_to != 0) {
    ImGui::SetScrollY(std::max(0.0f, line_h * static_cast<float>(text.scroll_to - 1) -
                                         ImGui::GetWindowHeight() * 0.4f));
    out.push_back(SourceScrolled{v.step, text.generation});
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(ui.fonts.value);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(text.lines.size()), line_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const auto line = static_cast<std::uint32_t>(i + 1);
      const std::uint8_t marks = text.marks != nullptr && i < static_cast<int>(text.marks->size())
                                     ? (*text.marks)[static_cast<std::size_t>(i)]
                                     : 0;
      bool error_line = false;
      for (const CompilerMessage& c : text.messages)
        error_line |= c.line == line && c.severity == "error";
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float w = std::max(ImGui::GetWindowWidth(), 2000.0f);
      if (line == current) {
        dl->AddRectFilled(p, ImVec2(p.x + w, p.y + line_h), colour(kPalette.current_line));
      } else if (error_line) {
        dl->AddRectFilled(p, ImVec2(p.x + w, p.y + line_h), colour(kPalette.diagnostic_fill));
      }
      // Gutter: a dot for a line with steps, ! for diagnostics, > for the current line.
      const char* mark = line == current                  ? ">"
                         : (marks & kLineHasDiagnostic) || error_line ? "!"
                         : (marks & kLineHasSteps)        ? "*"
                                                          : " ";
      const Rgba mark_colour =
          (marks & kLineHasDiagnostic) || error_line ? okabe_ito::vermillion : okabe_ito::blue;
      ImGui::PushID(i);
      ImGui::PushStyleColor(ImGuiCol_Text, colour4(kPalette.ink));
      if (ImGui::Selectable("##line", false, ImGuiSelectableFlags_AllowItemOverlap,
                            ImVec2(0, line_h - ImGui::GetStyle().ItemSpacing.y)) &&
          (marks & kLineHasSteps)) {
        out.push_back(GoToLine{line});
      }
      if (ImGui::IsItemHovered() && (marks & kLineHasSteps)) {
        ImGui::SetTooltip("click: the warp's next step at line %u", line);
      }
      ImGui::SameLine(0, 0);
      ImGui::SetCursorScreenPos(p);
      ImGui::TextColored(colour4(mark_colour), "%s", mark);
      ImGui::SameLine();
      ImGui::TextDisabled("%3u", line);
      ImGui::SameLine();
      ImGui::TextUnformatted(text.lines[static_cast<std::size_t>(i)].c_str());
      ImGui::PopStyleColor();
      ImGui::PopID();
    }
  }
  ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace
}  // namespace warpsim::gui
