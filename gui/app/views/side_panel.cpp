// The side panel: a row of tabs (state kept in ViewState, not in ImGui) and the chosen one.
#include <imgui.h>

#include <iterator>

#include "views/views.hpp"

namespace warpsim::gui {

// The tabs' views, each in its own file of this folder.
void draw_lesson_browser(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_exercise_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_warp_list(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_diagnostics_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_inputs_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_predict_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_gpu_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);

void draw_side_panel(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  begin_panel("##side", ui.layout.side);
  const std::size_t diagnostics = m.run ? m.run->result.trace.diagnostics.size() : 0;
  // A GPU that disagrees is as loud as a diagnostic: its tab says so in the same way.
  const bool gpu_differs = m.run && m.run->gpu && !m.run->gpu->comparison.matches();
  const std::string diag_label = "Diagnostics (" + std::to_string(diagnostics) + ")";
  const std::string gpu_label = gpu_differs ? "GPU differs!" : "GPU";
  const std::string exercise_label = !m.exercise ? "Exercises" : "Exercise";
  // Each tab's label (some say what is in them) and view, in kTabNames' order (model/tabs.hpp).
  struct SideTab {
    Tab tab;
    std::string label;
    void (*draw)(const Model&, const ViewState&, const Ui&, Commands&);
  };
  const SideTab tabs[] = {{Tab::lessons, "Lessons", draw_lesson_browser},
                          {Tab::exercise, exercise_label, draw_exercise_view},
                          {Tab::warps, "Warps", draw_warp_list},
                          {Tab::diagnostics, diag_label, draw_diagnostics_view},
                          {Tab::inputs, "Inputs", draw_inputs_view},
                          {Tab::predict, "Predict", draw_predict_view},
                          {Tab::gpu, gpu_label, draw_gpu_view}};
  static_assert(std::size(tabs) == std::size(kTabNames), "every tab has a label and a view");
  const float right = ImGui::GetWindowContentRegionMax().x;
  for (const SideTab& t : tabs) {
    // Side by side while they fit, then on the next line.
    if (&t != &tabs[0]) {
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
  for (const SideTab& t : tabs) {
    if (v.tab == t.tab) t.draw(m, v, ui, out);
  }
  ImGui::End();
}

}  // namespace warpsim::gui
