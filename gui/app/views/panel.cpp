#include <imgui.h>

#include "views/views.hpp"

namespace warpsim::gui {

void begin_panel(const char* id, Box area, int extra_flags) {
  ImGui::SetNextWindowPos(ImVec2(area.x0, area.y0));
  ImGui::SetNextWindowSize(ImVec2(area.width(), area.height()));
  ImGui::Begin(id, nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoBackground | extra_flags);
}

void panel_heading(const Ui& ui, const char* text) {
  ImGui::PushFont(ui.fonts.small);
  ImGui::TextDisabled("%s", text);
  ImGui::PopFont();
  ImGui::Separator();
}

bool keys_free() { return !ImGui::GetIO().WantTextInput; }

}  // namespace warpsim::gui
