#include "views/shortcuts.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "views/views.hpp"

namespace warpsim::gui {
namespace {

constexpr Shortcut kShortcuts[] = {
    {Action::next, GLFW_KEY_RIGHT, false, false, "Right", "next step"},
    {Action::next, GLFW_KEY_L, false, false, "L", ""},
    {Action::previous, GLFW_KEY_LEFT, false, false, "Left", "previous step (back in time)"},
    {Action::previous, GLFW_KEY_H, false, false, "H", ""},
    {Action::first, GLFW_KEY_HOME, false, false, "Home", "first step"},
    {Action::last, GLFW_KEY_END, false, false, "End", "last step"},
    {Action::play, GLFW_KEY_SPACE, false, false, "Space", "play / pause"},
    {Action::faster, GLFW_KEY_RIGHT_BRACKET, false, false, "]", "play faster"},
    {Action::slower, GLFW_KEY_LEFT_BRACKET, false, false, "[", "play slower"},
    {Action::next_diagnostic, GLFW_KEY_N, false, false, "N", "next diagnostic or GPU difference"},
    {Action::previous_diagnostic, GLFW_KEY_N, true, false, "Shift+N",
     "previous diagnostic or GPU difference"},
    {Action::until_change, GLFW_KEY_C, false, false, "C",
     "run until the watched lane's value changes"},
    {Action::unwatch, GLFW_KEY_ESCAPE, false, false, "Esc", "stop watching a lane; close help"},
    {Action::next_warp, GLFW_KEY_DOWN, false, false, "Down", "next warp"},
    {Action::previous_warp, GLFW_KEY_UP, false, false, "Up", "previous warp"},
    {Action::all_warps, GLFW_KEY_A, false, false, "A", "step through all warps / one warp"},
    {Action::format, GLFW_KEY_F, false, false, "F", "values: natural, decimal, hex, binary"},
    {Action::predict, GLFW_KEY_P, false, false, "P", "predict mode on / off"},
    {Action::reload, GLFW_KEY_R, false, false, "R", "run the file again"},
    {Action::grade, GLFW_KEY_G, false, false, "G", "exercise: grade the file as it is on disk"},
    {Action::grade, GLFW_KEY_F5, false, false, "F5", ""},
    {Action::hint, GLFW_KEY_I, false, false, "I", "exercise: the next hint"},
    {Action::close_case, GLFW_KEY_BACKSPACE, false, false, "Backspace",
     "exercise: close the case, back to the task"},
    {Action::export_png, GLFW_KEY_E, false, false, "E", "export this step as PNG"},
    {Action::export_svg, GLFW_KEY_E, true, false, "Shift+E", "export this step as SVG"},
    {Action::font_bigger, GLFW_KEY_EQUAL, false, true, "Ctrl+=", "larger text"},
    {Action::font_smaller, GLFW_KEY_MINUS, false, true, "Ctrl+-", "smaller text"},
    {Action::help, GLFW_KEY_F1, false, false, "F1", "this help"},
    {Action::help, GLFW_KEY_SLASH, true, false, "?", ""},
    {Action::quit, GLFW_KEY_Q, false, true, "Ctrl+Q", "quit"},
};

std::optional<WarpKey> neighbour_warp(const Model& m, const ViewState& v, int direction) {
  if (!has_steps(m)) return std::nullopt;
  const auto warps = m.run->index.warps();
  for (std::size_t i = 0; i < warps.size(); ++i) {
    if (!(warps[i].warp == v.warp)) continue;
    for (long j = static_cast<long>(i) + direction; j >= 0 && j < static_cast<long>(warps.size());
         j += direction) {
      if (warps[static_cast<std::size_t>(j)].steps > 0) return warps[static_cast<std::size_t>(j)].warp;
    }
  }
  return std::nullopt;
}

}  // namespace

std::span<const Shortcut> shortcuts() { return kShortcuts; }

const char* keys_of(Action action) {
  for (const Shortcut& s : kShortcuts) {
    if (s.action == action) return s.keys;
  }
  return "";
}

std::optional<Command> command_for(Action action, const Model& m, const ViewState& v) {
  switch (action) {
    case Action::next:
      return StepBy{1};
    case Action::previous:
      return StepBy{-1};
    case Action::first:
      return ToEnd{false};
    case Action::last:
      return ToEnd{true};
    case Action::play:
      return SetPlaying{!v.playing};
    case Action::faster:
      return SetSpeed{v.speed * 1.5f};
    case Action::slower:
      return SetSpeed{v.speed / 1.5f};
    case Action::next_diagnostic:
      return NextDiagnostic{false};
    case Action::previous_diagnostic:
      return NextDiagnostic{true};
    case Action::until_change:
      return RunUntilChange{};
    case Action::unwatch:
      if (v.show_help) return ShowHelp{false};
      return WatchLane{-1};
    case Action::next_warp:
    case Action::previous_warp:
      if (const auto w = neighbour_warp(m, v, action == Action::next_warp ? 1 : -1)) {
        return SelectWarp{*w};
      }
      return std::nullopt;
    case Action::all_warps:
      return SetAllWarps{!v.all_warps};
    case Action::format:
      return SetFormat{static_cast<ValueFormat>((static_cast<int>(v.format) + 1) % 4)};
    case Action::predict:
      return SetPredict{!v.predict};
    case Action::reload:
      return Reload{};
    case Action::export_png:
      return ExportPng{};
    case Action::export_svg:
      return ExportSvg{};
    case Action::font_bigger:
      return SetFontSize{v.font_size + 1};
    case Action::font_smaller:
      return SetFontSize{v.font_size - 1};
    case Action::help:
      return ShowHelp{!v.show_help};
    case Action::quit:
      return Quit{};
    case Action::grade:
      if (m.exercise) return Grade{};
      return std::nullopt;
    case Action::hint:
      if (m.exercise) return ShowHint{};
      return std::nullopt;
    case Action::close_case:
      if (m.run && m.run->request.exercise_case) return CloseCase{};
      return std::nullopt;
  }
  return std::nullopt;
}

void handle_shortcuts(const Model& m, const ViewState& v, const Ui&, Commands& out) {
  if (!keys_free()) return;
  const ImGuiIO& io = ImGui::GetIO();
  for (const Shortcut& s : kShortcuts) {
    if (io.KeyShift != s.shift || io.KeyCtrl != s.ctrl) continue;
    const bool repeat = s.action == Action::next || s.action == Action::previous;
    if (!ImGui::IsKeyPressed(s.key, repeat)) continue;
    if (auto c = command_for(s.action, m, v)) out.push_back(std::move(*c));
  }
}

}  // namespace warpsim::gui
