// Predict mode: what the lanes receive stays hidden; type a value for any lanes, check, score.
// (Lessons' own questions join this once lessons load through the course layer.)
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "views/views.hpp"

namespace warpsim::gui {

void draw_predict_view(const Model& m, const ViewState& v, const Ui&, Commands& out) {
  if (!v.predict) {
    ImGui::TextWrapped("Predict mode hides what each lane receives until you have guessed. "
                       "Turn it on to test yourself, step by step.");
    if (ImGui::Button("Turn predict mode on")) out.push_back(SetPredict{true});
    return;
  }
  if (v.score.asked > 0) ImGui::Text("Score: %d of %d", v.score.right, v.score.asked);
  if (!m.cache.view) return;
  const StepView& s = *m.cache.view;
  if (s.result == ResultKind::none) {
    ImGui::TextWrapped("A barrier gives no value: nothing to predict here. Step on.");
    return;
  }
  if (!outputs_hidden(m, v)) {
    ImGui::TextWrapped("%s", v.predict_feedback.empty() ? "Revealed." : v.predict_feedback.c_str());
    return;
  }
  // The lesson's questions ask about chosen lanes; elsewhere any lane may be guessed.
  const std::vector<const course::Question*> questions = current_questions(m, v);
  LaneMask asked = 0;
  for (const course::Question* q : questions) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0.447f, 0.698f, 1));
    ImGui::TextWrapped("%s", q->prompt.c_str());
    ImGui::PopStyleColor();
    for (const int lane : q->lanes) asked |= lane_bit(lane);
  }
  if (questions.empty()) {
    ImGui::TextWrapped("What does each lane receive from %s? Type values for some lanes, then Check.",
                       s.name.c_str());
  }
  const float cell = (ImGui::GetContentRegionAvail().x - 3 * ImGui::GetStyle().ItemSpacing.x) / 4;
  int shown = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(s.participants, lane) || (asked != 0 && !has_lane(asked, lane))) continue;
    if (shown++ % 4 != 0) ImGui::SameLine();
    ImGui::PushID(lane);
    std::array<char, 96> buffer{};
    std::strncpy(buffer.data(), v.guesses[static_cast<std::size_t>(lane)].c_str(), buffer.size() - 1);
    const float label_w = ImGui::CalcTextSize("lane 00 ").x;
    ImGui::AlignTextToFramePadding();
    ImGui::Text("lane %d", lane);
    ImGui::SameLine(0, 4);
    ImGui::SetNextItemWidth(std::max(30.0f, cell - label_w));
    if (ImGui::InputText("##guess", buffer.data(), buffer.size())) {
      out.push_back(SetGuess{lane, buffer.data()});
    }
    ImGui::PopID();
  }
  if (ImGui::Button("Check")) out.push_back(CheckGuesses{});
  if (!v.predict_feedback.empty()) ImGui::TextWrapped("%s", v.predict_feedback.c_str());
}

}  // namespace warpsim::gui
