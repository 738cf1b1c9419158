// The toolbar: what is open and how its run went; stepping, playing and the view's settings.
#include <imgui.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "model/palette.hpp"
#include "views/shortcuts.hpp"
#include "views/views.hpp"

namespace warpsim::gui {
namespace {

bool button(const char* label, Action action, const char* what) {
  const bool pressed = ImGui::Button(label);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (%s)", what, keys_of(action));
  return pressed;
}

void run_status(const Model& m, const Ui& ui) {
  if (m.exercise && m.exercise->grading) {
    const double seconds = ui.now - m.exercise->grading_since;
    const char* spinner = "|/-\\";
    ImGui::TextColored(colour4(okabe_ito::blue), "%c grading %s ... %s, %.1f s",
                       spinner[static_cast<int>(seconds * 8) % 4],
                       std::filesystem::path(m.exercise->file).filename().string().c_str(),
                       score_text(*m.exercise).c_str(), seconds);
    return;
  }
  if (m.running) {
    const double seconds = ui.now - m.running->since;
    const char* spinner = "|/-\\";
    ImGui::TextColored(colour4(okabe_ito::blue), "%c running %s ... %.1f s",
                       spinner[static_cast<int>(seconds * 8) % 4], m.running->what.c_str(), seconds);
    return;
  }
  if (m.wanted) {
    ImGui::TextColored(colour4(okabe_ito::blue), "starting ...");
    return;
  }
  if (!m.notice.empty()) {
    ImGui::TextColored(colour4(m.notice_is_error ? okabe_ito::vermillion : kPalette.faint_ink), "%s",
                       m.notice.c_str());
  }
}

}  // namespace

void draw_toolbar(const Model& m, const ViewState& v, const Ui& ui, Commands& out) {
  begin_panel("##toolbar", ui.layout.toolbar, ImGuiWindowFlags_NoScrollbar);
  // Row 1: what is open, the run's status; exports and display settings on the right.
  ImGui::PushFont(ui.fonts.title);
  ImGui::TextUnformatted("warpsim");
  ImGui::PopFont();
  ImGui::SameLine();
  const RunRequest* shown = m.wanted ? &*m.wanted : (m.run ? &m.run->request : nullptr);
  if (shown != nullptr) {
    ImGui::TextUnformatted(launch_title(*shown).c_str());
  } else if (m.exercise) {
    ImGui::Text("Exercise: %s", m.exercise->exercise->title.c_str());
  }
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  run_status(m, ui);

  const float right = ImGui::GetWindowContentRegionMax().x;
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* labels[] = {"Predict", "PNG", "SVG", "SVG steps", "A-", "A+", "?"};
  float width = 0;
  for (const char* l : labels) width += ImGui::CalcTextSize(l).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
  width += ImGui::GetFrameHeight();  // the checkbox's square
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), right - width));
  bool predict = v.predict;
  if (ImGui::Checkbox("Predict", &predict)) out.push_back(SetPredict{predict});
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Hide what lanes receive until you have guessed (%s)", keys_of(Action::predict));
  }
  ImGui::BeginDisabled(!has_steps(m));
  ImGui::SameLine();
  if (button("PNG", Action::export_png, "Export this step as PNG")) out.push_back(ExportPng{});
  ImGui::SameLine();
  if (button("SVG", Action::export_svg, "Export this step as SVG (for slides)")) {
    out.push_back(ExportSvg{});
  }
  ImGui::SameLine();
  if (ImGui::Button("SVG steps")) out.push_back(ExportSvgSequence{});
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Export every step of %s as step-NNN.svg into %s",
                      v.all_warps ? "the trace" : "this warp", v.export_dir.c_str());
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (button("A-", Action::font_smaller, "Smaller text")) out.push_back(SetFontSize{v.font_size - 1});
  ImGui::SameLine();
  if (button("A+", Action::font_bigger, "Larger text")) out.push_back(SetFontSize{v.font_size + 1});
  ImGui::SameLine();
  if (button("?", Action::help, "Keyboard shortcuts and legend")) out.push_back(ShowHelp{!v.show_help});

  // Row 2: stepping.
  ImGui::BeginDisabled(!has_steps(m));
  if (button("|<", Action::first, "First step")) out.push_back(ToEnd{false});
  ImGui::SameLine();
  if (button("<", Action::previous, "Previous step")) out.push_back(StepBy{-1});
  ImGui::SameLine();
  if (button(v.playing ? "Pause" : "Play ", Action::play, "Play / pause")) {
    out.push_back(SetPlaying{!v.playing});
  }
  ImGui::SameLine();
  if (button(">", Action::next, "Next step")) out.push_back(StepBy{1});
  ImGui::SameLine();
  if (button(">|", Action::last, "Last step")) out.push_back(ToEnd{true});
  ImGui::SameLine();
  if (has_steps(m) && !m.scope.empty() && v.at_wait) {
    ImGui::Text("after step %zu of %zu", m.scope.size(), m.scope.size());
  } else if (has_steps(m) && !m.scope.empty()) {
    ImGui::Text("step %zu of %zu", m.scope.position_of(v.step) + 1, m.scope.size());
  } else {
    ImGui::TextDisabled("no steps");
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  float speed = v.speed;
  if (ImGui::SliderFloat("##speed", &speed, 0.25f, 20.0f, "%.2g steps/s",
                         ImGuiSliderFlags_Logarithmic)) {
    out.push_back(SetSpeed{speed});
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play speed ([ slower, ] faster)");
  ImGui::SameLine();
  if (button("< diag", Action::previous_diagnostic, "Previous step with a diagnostic")) {
    out.push_back(NextDiagnostic{true});
  }
  ImGui::SameLine();
  if (button("diag >", Action::next_diagnostic, "Next step with a diagnostic")) {
    out.push_back(NextDiagnostic{false});
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.5f);
  const std::string watched = v.watched_lane < 0 ? "no lane" : "lane " + std::to_string(v.watched_lane);
  if (ImGui::BeginCombo("##watch", watched.c_str())) {
    if (ImGui::Selectable("no lane", v.watched_lane < 0)) out.push_back(WatchLane{-1});
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const std::string name = "lane " + std::to_string(lane);
      if (ImGui::Selectable(name.c_str(), lane == v.watched_lane)) out.push_back(WatchLane{lane});
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Watch a lane (or click it in the lane view)");
  ImGui::SameLine();
  ImGui::BeginDisabled(v.watched_lane < 0);
  if (button("until change", Action::until_change, "Run until the watched lane's value changes")) {
    out.push_back(RunUntilChange{});
  }
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::BeginCombo("##format", std::string(to_string(v.format)).c_str())) {
    for (const ValueFormat f :
         {ValueFormat::natural, ValueFormat::decimal, ValueFormat::hex, ValueFormat::binary}) {
      if (ImGui::Selectable(std::string(to_string(f)).c_str(), f == v.format)) {
        out.push_back(SetFormat{f});
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("How values are written (%s)", keys_of(Action::format));
  ImGui::SameLine();
  bool all = v.all_warps;
  if (ImGui::Checkbox("all warps", &all)) out.push_back(SetAllWarps{all});
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Step through every warp's steps in the order they ran (%s)",
                      keys_of(Action::all_warps));
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  int history = v.history;
  if (ImGui::SliderInt("##history", &history, 0, 8, "%d earlier")) out.push_back(SetHistory{history});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Earlier steps of the warp drawn above this one");
  ImGui::End();
}

}  // namespace warpsim::gui
