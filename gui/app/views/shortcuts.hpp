// The keyboard shortcuts: one table, read by the key handler and listed by the help overlay.
#pragma once

#include <optional>
#include <span>

#include "model/app_model.hpp"

namespace warpsim::gui {

enum class Action : std::uint8_t {
  next, previous, first, last, play, faster, slower, next_diagnostic, previous_diagnostic,
  until_change, unwatch, next_warp, previous_warp, all_warps, format, predict, reload,
  export_png, export_svg, font_bigger, font_smaller, help, quit, grade, hint, close_case,
};

struct Shortcut {
  Action action;
  int key;             // GLFW key code
  bool shift = false;
  bool ctrl = false;
  const char* keys;    // as the help overlay prints it
  const char* what;
};

std::span<const Shortcut> shortcuts();
// What `action` does now (a toggle depends on the state).
std::optional<Command> command_for(Action action, const Model& model, const ViewState& view);
// "Right / L": the keys of an action, for tooltips.
const char* keys_of(Action action);

}  // namespace warpsim::gui
