// The narrative: the current step in words (model/narrate.hpp), its diagnostics, how the run
// ended; at the warp's last step, the buffers as the kernel left them. A lesson's own notes join
// these once lessons load through the course layer.
#include <imgui.h>

#include <cstring>

#include "model/palette.hpp"
#include "views/views.hpp"

namespace warpsim::gui {
namespace {

ImVec4 colour4(Rgba c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

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

}  // namespace

void draw_narrative_view(const Model& m, const ViewState& v, const Ui& ui, Commands&) {
  begin_panel("##narrative", ui.layout.narrative);
  panel_heading(ui, "What happened");
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
    } else {
      ImGui::PushFont(ui.fonts.title);
      ImGui::TextWrapped("Step %u of %u: %s", s->position + 1, s->warp_steps, s->name.c_str());
      ImGui::PopFont();
    }
    if (focus && s->position == 0 &&
        ImGui::CollapsingHeader("Introduction", ImGuiTreeNodeFlags_DefaultOpen)) {
      for (const std::string& p : lesson->intro) ImGui::TextWrapped("%s", p.c_str());
    }
    for (const course::Question* q : current_questions(m, v)) {
      ImGui::PushStyleColor(ImGuiCol_Text, colour4(okabe_ito::blue));
      ImGui::TextWrapped("Question (Predict tab): %s", q->prompt.c_str());
      ImGui::PopStyleColor();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, colour4(kPalette.faint_ink));
    ImGui::TextWrapped("%s: %s  (%s, pass %u)", s->name.c_str(), s->contract.c_str(),
                       s->site.c_str(), s->pass);
    ImGui::PopStyleColor();
    if (!outputs_hidden(m, v)) {
      for (const std::string& line : m.cache.narrative) ImGui::TextWrapped("%s", line.c_str());
    }
    for (const std::string& d : m.cache.diagnostic_lines) {
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
    if (s->position + 1 == s->warp_steps && r.status == runner::RunStatus::completed) {
      ImGui::Spacing();
      if (focus) {
        for (const std::string& p : lesson->outro) ImGui::TextWrapped("%s", p.c_str());
      }
      ImGui::TextDisabled("After the kernel:");
      for (const runner::OutputBuffer& b : r.buffers) {
        ImGui::TextWrapped("arg %zu = %s", b.arg, buffer_text(b, 64).c_str());
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
