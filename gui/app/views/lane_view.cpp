// The lane view: the current step's figure (model/step_figure.hpp) painted with ImGui; pointing
// at a lane's cell says what it holds, clicking it watches that lane.
#include <imgui.h>

#include "draw_figure.hpp"
#include "model/palette.hpp"
#include "views/views.hpp"

namespace warpsim::gui {

void draw_lane_view(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  begin_panel("##lanes", ui.layout.lanes, ImGuiWindowFlags_HorizontalScrollbar);
  if (m.exercise && !m.run && !m.wanted && !m.running) {
    draw_exercise_task(m, ui);
    ImGui::End();
    return;
  }
  if (!has_steps(m) && m.cache.wait) {
    // Deadlocked at its first call: no step completed, but where every lane waits is drawn.
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.835f, 0.369f, 0, 1));
    ImGui::TextWrapped("No warp-level call completed: the kernel deadlocked at its first one.");
    for (const std::string& line : m.cache.wait->lines) ImGui::TextWrapped("%s", line.c_str());
    ImGui::PopStyleColor();
  } else if (!has_steps(m)) {
    ImGui::PushFont(ui.fonts.title);
    if (m.running || m.wanted) {
      ImGui::TextUnformatted("Running the kernel ...");
    } else if (m.run && m.run->result.status == runner::RunStatus::bad_input) {
      ImGui::TextColored(ImVec4(0.835f, 0.369f, 0, 1), "The kernel did not run.");
    } else if (m.run) {
      ImGui::TextUnformatted("This run made no warp-level calls: nothing to step through.");
    }
    ImGui::PopFont();
    if (m.run && !m.run->result.message.empty()) {
      // The first lines; the source panel marks the lines a compiler named.
      const std::string msg = m.run->result.message +
                              (m.run->result.details.empty() ? "" : "\n" + m.run->result.details);
      const std::size_t cut = std::min(msg.size(), static_cast<std::size_t>(4000));
      ImGui::PushFont(ui.fonts.value);
      ImGui::TextWrapped("%s", msg.substr(0, cut).c_str());
      ImGui::PopFont();
    }
    ImGui::End();
    return;
  }
  const Figure& f = ui.lane_figure;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  draw_figure(*ImGui::GetWindowDrawList(), f, origin.x, origin.y, ui.fonts);
  ImGui::InvisibleButton("##figure", ImVec2(std::max(1.0f, f.width), std::max(1.0f, f.height)));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const Point at{mouse.x - origin.x, mouse.y - origin.y};
    for (const Hit& hit : f.hits) {
      if (!hit.box.contains(at)) continue;
      ImGui::SetTooltip("%s\n(click: %s lane %d)", hit.tooltip.c_str(),
                        hit.lane == v.watched_lane ? "stop watching" : "watch", hit.lane);
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        out.push_back(WatchLane{hit.lane == v.watched_lane ? -1 : hit.lane});
      }
      break;
    }
  }
  const ImVec2 clip_min = ImGui::GetWindowPos();
  const ImVec2 clip_max(clip_min.x + ImGui::GetWindowWidth(), clip_min.y + ImGui::GetWindowHeight());
  out.push_back(FigurePlaced{{origin.x, origin.y}, {clip_min.x, clip_min.y, clip_max.x, clip_max.y}});
  ImGui::End();
}

}  // namespace warpsim::gui
