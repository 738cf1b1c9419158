// The lessons (from the course layer's catalogue): number, title and summary; a click opens one.
// The open lesson's presets and exercises are listed under it, each a click away.
#include <imgui.h>

#include "views/views.hpp"

namespace warpsim::gui {

void draw_lesson_browser(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  if (!m.catalogue || m.catalogue->lessons.empty()) {
    ImGui::TextWrapped("No lessons found (looked in %s).",
                       course::default_lessons_dir().string().c_str());
    return;
  }
  const course::Lesson* open = m.run ? m.run->lesson : nullptr;
  ImGui::BeginChild("##lessons");
  for (const course::Lesson& lesson : m.catalogue->lessons) {
    ImGui::PushID(lesson.id.c_str());
    const bool is_open = open != nullptr && open->id == lesson.id;
    const std::string label = lesson.id.substr(0, 2) + "  " + lesson.title;
    if (ImGui::Selectable(label.c_str(), is_open)) out.push_back(OpenLesson{lesson.id, ""});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", lesson.summary.c_str());
    if (is_open) {
      ImGui::Indent();
      ImGui::PushFont(ui.fonts.small);
      ImGui::TextWrapped("%s", lesson.summary.c_str());
      for (const course::Preset& preset : lesson.presets) {
        const bool chosen = preset.name == v.preset;
        const std::string name = "preset " + preset.name;
        if (ImGui::Selectable(name.c_str(), chosen)) out.push_back(OpenLesson{lesson.id, preset.name});
        if (ImGui::IsItemHovered() && !preset.summary.empty()) {
          ImGui::SetTooltip("%s", preset.summary.c_str());
        }
      }
      // The lesson's exercises: a click opens one in the Exercise tab, on its starter.
      if (m.exercises) {
        for (const course::Exercise& e : m.exercises->exercises) {
          if (e.lesson != lesson.id) continue;
          const std::string name = "exercise: " + e.title;
          if (ImGui::Selectable(name.c_str(), false)) out.push_back(OpenExercise{e.id, ""});
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.summary.c_str());
        }
      }
      ImGui::PopFont();
      ImGui::Unindent();
    }
    ImGui::PopID();
  }
  for (const Error& problem : m.catalogue->problems) {
    ImGui::TextColored(ImVec4(0.835f, 0.369f, 0, 1), "%s", problem.message.c_str());
  }
  ImGui::EndChild();
}

}  // namespace warpsim::gui
