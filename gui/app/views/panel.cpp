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

std::string fitted(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  const std::string ellipsis = "\u2026";
  std::size_t keep = text.size();
  while (keep > 0) {
    do {
      --keep;  // back to the start of a UTF-8 character
    } while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xc0) == 0x80);
    const std::string cut = text.substr(0, keep) + ellipsis;
    if (ImGui::CalcTextSize(cut.c_str()).x <= width) return cut;
  }
  return ellipsis;
}

void text_fitted(const std::string& text, Rgba colour) {
  const std::string shown = fitted(text, ImGui::GetContentRegionAvail().x);
  ImGui::TextColored(colour4(colour), "%s", shown.c_str());
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace warpsim::gui
