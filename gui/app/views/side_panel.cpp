// The side panel: a row of tabs (state kept in ViewState, not in ImGui) and the chosen one.
#include <imgui.h>

#include "views/views.hpp"

namespace warpsim::gui {

void draw_side_panel(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  begin_panel("##side", ui.layout.side);
  const std::size_t diagnostics = m.run ? m.run->result.trace.diagnostics.size() : 0;
  // A GPU that disagrees is as loud as a diagnostic: its tab says so in the same way.
  const bool gpu_differs = m.run && m.run->gpu && !m.run->gpu->comparison.matches();
  const std::string diag_label = "Diagnostics (" + std::to_string(diagnostics) + ")";
  const std::string gpu_label = gpu_differs ? "GPU differs!" : "GPU";
  const std::string exercise_label = !m.exercise ? "Exercises" : "Exercise";
  const struct {
    Tab tab;
    std::string label;
  } tabs[] = {{Tab::lessons, "Lessons"}, {Tab::exercise, exercise_label},
              {Tab::warps, "Warps"},     {Tab::diagnostics, diag_label},
              {Tab::inputs, "Inputs"},   {Tab::predict, "Predict"},
              {Tab::gpu, gpu_label}};
  const float right = ImGui::GetWindowContentRegionMax().x;
  for (const auto& t : tabs) {
    // Side by side while they fit, then on the next line.
    if (t.tab != Tab::lessons) {
      ImGui::SameLine();
      const float w = ImGui::CalcTextSize(t.label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
      if (ImGui::GetCursorPosX() + w > right) ImGui::NewLine();
    }
    const bool selected = v.tab == t.tab;
    const bool loud = t.tab == Tab::gpu && gpu_differs;
    if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (loud) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.8f, 0.475f, 0.655f, 1));
    if (ImGui::Button(t.label.c_str())) out.push_back(SetTab{t.tab});
    if (loud) ImGui::PopStyleColor();
    if (selected) ImGui::PopStyleColor();
  }
  ImGui::Separator();
  switch (v.tab) {
    case Tab::lessons:
      draw_lesson_browser(m, v, ui, out);
      break;
    case Tab::exercise:
      draw_exercise_view(m, v, ui, out);
      break;
    case Tab::warps:
      draw_warp_list(m, v, ui, out);
      break;
    case Tab::diagnostics:
      draw_diagnostics_view(m, v, ui, out);
      break;
    case Tab::inputs:
      draw_inputs_view(m, v, ui, out);
      break;
    case Tab::predict:
      draw_predict_view(m, v, ui, out);
      break;
    case Tab::gpu:
      draw_gpu_view(m, v, ui, out);
      break;
  }
  ImGui::End();
}

}  // namespace warpsim::gui
