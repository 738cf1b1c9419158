// Every diagnostic of the run: kind, place, lanes and the sentence; a click goes to its step.
#include <imgui.h>

#include "views/views.hpp"

namespace warpsim::gui {

void draw_diagnostics_view(const Model& m, const ViewState& v, const Ui&, Commands& out) {
  if (!m.run) return;
  const Trace& trace = m.run->result.trace;
  if (trace.diagnostics.empty()) {
    ImGui::TextWrapped("No diagnostics: every lane named in every mask arrived, and no result "
                       "was undefined.");
    return;
  }
  // A few diagnostics wrap their sentences (race reports are long); many are clipped to the
  // visible rows, which needs rows of one height: one line each (scrolled sideways), the
  // sentence in a tooltip.
  constexpr std::size_t kWrappedAtMost = 200;
  const bool wrap = trace.diagnostics.size() <= kWrappedAtMost;
  ImGui::BeginChild("##diagnostics", ImVec2(0, 0), false,
                    wrap ? ImGuiWindowFlags_None : ImGuiWindowFlags_HorizontalScrollbar);
  const auto draw_row = [&](int i) {
    const Diagnostic& d = trace.diagnostics[static_cast<std::size_t>(i)];
    ImGui::PushID(i);
    const bool here = d.step >= 0 && static_cast<std::size_t>(d.step) == v.step;
    std::string head = std::string(to_string(d.kind)) + "  " + site_text(trace, d.where) +
                       "  block " + std::to_string(d.block) + " warp " + std::to_string(d.warp) +
                       "  lanes " + format_lanes(d.lanes);
    if (d.occurrences > 1) head += "  (" + std::to_string(d.occurrences) + " times)";
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.835f, 0.369f, 0, 1));
    if (ImGui::Selectable(head.c_str(), here) && d.step >= 0) {
      out.push_back(GoTo{static_cast<std::size_t>(d.step)});
    }
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s%s", d.message.c_str(), d.step >= 0 ? "\n(click: go to its step)" : "");
    }
    ImGui::Indent();
    if (wrap) {
      ImGui::TextWrapped("%s", d.message.c_str());
    } else {
      ImGui::TextUnformatted(d.message.c_str());
    }
    ImGui::Unindent();
    ImGui::PopID();
  };
  if (wrap) {
    for (std::size_t i = 0; i < trace.diagnostics.size(); ++i) draw_row(static_cast<int>(i));
  } else {
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(trace.diagnostics.size()));
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_row(i);
    }
  }
  ImGui::EndChild();
}

}  // namespace warpsim::gui
