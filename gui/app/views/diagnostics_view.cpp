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
  ImGui::BeginChild("##diagnostics", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(trace.diagnostics.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
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
      ImGui::TextUnformatted(d.message.c_str());  // one line each: the clipper needs even rows
      ImGui::Unindent();
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
}

}  // namespace warpsim::gui
