// The timeline: the scope's steps left to right, a mark where a step carries a diagnostic, the
// cursor; click or drag to scrub. Drawn from bins computed once per scope (model/timeline.hpp),
// so a 50,000-step trace costs what a short one does.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/palette.hpp"
#include "views/views.hpp"

namespace warpsim::gui {

void draw_timeline(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  begin_panel("##timeline", ui.layout.timeline, ImGuiWindowFlags_NoScrollbar);
  const TimelineMarks& t = m.timeline;
  if (!has_steps(m) || t.steps == 0) {
    if (m.exercise && !m.run) {
      ImGui::TextDisabled(
          "no case open: grade the file, then click a case in the Exercise tab to "
          "step through it");
    } else {
      ImGui::TextDisabled("timeline: no steps yet");
    }
    ImGui::End();
    return;
  }
  const std::string scope = v.all_warps ? "all warps" : "block " + std::to_string(v.warp.block) +
                                                            ", warp " + std::to_string(v.warp.warp);
  const std::string label = timeline_label(t, scope);
  ImGui::PushFont(ui.fonts.small);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", label.c_str());
  ImGui::PopFont();
  ImGui::SameLine();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = std::max(12.0f, ImGui::GetContentRegionAvail().y - 2);
  ImGui::InvisibleButton("##scrub", ImVec2(width, height));
  const bool active = ImGui::IsItemActive();
  const bool hovered = ImGui::IsItemHovered();
  const auto position_at = [&](float x) {
    const float f = std::clamp((x - origin.x) / width, 0.0f, 0.999999f);
    return static_cast<std::size_t>(f * static_cast<float>(t.steps));
  };
  if (active) {
    const std::size_t step = m.scope.step_at(position_at(ImGui::GetIO().MousePos.x));
    if (step != v.step) out.push_back(GoTo{step});
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 end(origin.x + width, origin.y + height);
  dl->AddRectFilled(origin, end, colour(rgb(0xF2F2F2)), 3);
  // Steps as ticks while they are wide enough to see, else a plain band.
  const float per_step = width / static_cast<float>(t.steps);
  if (per_step >= 4) {
    for (std::size_t p = 1; p < t.steps; ++p) {
      const float x = origin.x + per_step * static_cast<float>(p);
      dl->AddLine(ImVec2(x, origin.y + height * 0.65f), ImVec2(x, end.y), colour(kPalette.rule));
    }
  }
  // The cursor.
  const std::size_t here = m.scope.position_of(v.step);
  const float cx = origin.x + per_step * (static_cast<float>(here) + 0.5f);
  const ImVec2 c0(cx - std::max(1.5f, per_step / 2), origin.y), c1(cx + std::max(1.5f, per_step / 2), end.y);
  dl->AddRectFilled(c0, c1, colour(with_alpha(okabe_ito::sky_blue, 150)));
  dl->AddRect(c0, c1, colour(okabe_ito::blue), 0, 0, 2);
  // Diagnostics (top half) and GPU disagreements (bottom half), over the cursor: one mark per
  // pixel column that holds any.
  const float per_bin = width / static_cast<float>(t.bins());
  float last_x = -1, last_gpu_x = -1;
  for (std::size_t b = 0; b < t.bins(); ++b) {
    const float x = std::floor(origin.x + per_bin * (static_cast<float>(b) + 0.5f));
    if (t.diagnostic[b] != 0 && x != last_x) {
      last_x = x;
      dl->AddRectFilled(ImVec2(x - 1.5f, origin.y), ImVec2(x + 1.5f, origin.y + height * 0.55f),
                        colour(kPalette.timeline_mark));
    }
    if (t.gpu_differs[b] != 0 && x != last_gpu_x) {
      last_gpu_x = x;
      dl->AddRectFilled(ImVec2(x - 1.5f, origin.y + height * 0.45f), ImVec2(x + 1.5f, end.y),
                        colour(kPalette.differs));
    }
  }
  dl->AddRect(origin, end, colour(kPalette.rule), 3);
  if (hovered) {
    const std::size_t step = m.scope.step_at(position_at(ImGui::GetIO().MousePos.x));
    const StepInfo& info = m.run->index.info(step);
    ImGui::SetTooltip("step %zu: %s at %s (block %llu, warp %u)%s", m.scope.position_of(step) + 1,
                      std::string(to_string(info.op)).c_str(),
                      site_text(m.run->result.trace, info.where).c_str(),
                      static_cast<unsigned long long>(info.warp.block), info.warp.warp,
                      m.run->index.diagnostics_of(step).empty() ? "" : "  ! diagnostic");
  }
  ImGui::End();
}

}  // namespace warpsim::gui
