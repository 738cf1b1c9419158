// The help overlay: every keyboard shortcut (from the one table in shortcuts.cpp) and what the
// lane view's colours, patterns and marks mean.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/palette.hpp"
#include "views/shortcuts.hpp"
#include "views/views.hpp"

namespace warpsim::gui {

void draw_help_overlay(const Model&, const ViewState& v, const Ui& ui, Commands& out) {
  if (!v.show_help) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Size.x / 2, vp->Size.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(vp->Size.x * 0.8f, ui.fonts.pixel_size * 48), 0));
  bool open = true;
  ImGui::Begin("Keyboard shortcuts and legend", &open,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_AlwaysAutoResize);
  if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg)) {
    // One row per action, all its keys together ("Right / L").
    std::vector<Action> seen;
    for (const Shortcut& s : shortcuts()) {
      if (std::find(seen.begin(), seen.end(), s.action) != seen.end()) continue;
      seen.push_back(s.action);
      std::string keys;
      for (const Shortcut& other : shortcuts()) {
        if (other.action == s.action) keys += (keys.empty() ? "" : " / ") + std::string(other.keys);
      }
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(keys.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(s.what);
    }
    ImGui::EndTable();
  }
  ImGui::Separator();
  ImGui::TextWrapped(
      "Lanes: 'on' (blue) took part in the call; 'div' (orange, hatched) is named in the mask but "
      "diverged: it runs other code; 'off' (grey, dashed) is not in the mask; 'exit' (dark, "
      "crossed) has returned. Arrows run from the lane a value was read from to the lane that "
      "received it. ? marks a result CUDA leaves undefined, ! a GPU value that differs. Click a "
      "lane to watch it; C runs until its value changes.");
  ImGui::End();
  if (!open) out.push_back(ShowHelp{false});
}

}  // namespace warpsim::gui
