// Every warp with steps: how far it has got when the trace is at the cursor, its diagnostics;
// a click shows that warp (at the same position). A clipper draws only the visible rows.
#include <imgui.h>

#include "model/palette.hpp"
#include "views/views.hpp"

namespace warpsim::gui {

void draw_warp_list(const Model& m, const ViewState& v, const Ui&, Commands& out) {
  if (!m.run || m.run->index.warps().empty()) {  // a warp deadlocked at its first call is listed
    ImGui::TextDisabled("No warps yet.");
    return;
  }
  const TraceIndex& index = m.run->index;
  const auto warps = index.warps();
  const unsigned long long blocks = m.run->result.trace.grid.count();
  // Wrapped: a narrow side panel cut it off at "when the trace is at the c".
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%zu %s in %llu %s; where each is when the trace is at the cursor",
                     warps.size(), warps.size() == 1 ? "warp" : "warps", blocks,
                     blocks == 1 ? "block" : "blocks");
  ImGui::PopStyleColor();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##warps", 4, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("warp", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("steps", ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("!", ImGuiTableColumnFlags_WidthStretch, 0.3f);
  ImGui::TableSetupColumn("at the cursor", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(warps.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const WarpSummary& w = warps[static_cast<std::size_t>(i)];
      const WarpProgress p = warp_progress(index, w.warp, v.step);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      const std::string name =
          "block " + std::to_string(w.warp.block) + ", warp " + std::to_string(w.warp.warp);
      if (ImGui::Selectable(name.c_str(), w.warp == v.warp,
                            ImGuiSelectableFlags_SpanAllColumns) && w.steps > 0) {
        out.push_back(SelectWarp{w.warp});
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::Text("%zu", w.steps);
      ImGui::TableNextColumn();
      if (w.diagnostics > 0) {
        ImGui::TextColored(ImVec4(0.835f, 0.369f, 0, 1), "%zu", w.diagnostics);
      }
      ImGui::TableNextColumn();
      if (w.deadlocked && p.done == p.total) {
        // Its lanes wait for good: the launch stopped here (the lane view draws where).
        text_fitted(p.total == 0 ? std::string("deadlocked at its first call")
                                 : "deadlocked after " + std::to_string(p.total) +
                                       (p.total == 1 ? " step" : " steps"),
                    okabe_ito::vermillion);
      } else if (p.done == 0) {
        ImGui::TextDisabled("not started");
      } else if (p.done == p.total) {
        ImGui::TextDisabled("done (%zu %s)", p.total, p.total == 1 ? "step" : "steps");
      } else {
        const std::size_t last = index.steps_of(w.warp)[p.done - 1];
        ImGui::Text("%zu/%zu %s", p.done, p.total, std::string(to_string(index.info(last).op)).c_str());
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace warpsim::gui
