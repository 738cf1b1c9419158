#include "model/screen_layout.hpp"

#include <algorithm>

namespace warpsim::gui {

ScreenLayout layout_screen(float width, float height, float line, float lanes_wanted,
                           float bottom_lines) {
  ScreenLayout s;
  const float toolbar_h = 2 * line + 20;
  const float timeline_h = line + 14;
  s.toolbar = {0, 0, width, toolbar_h};
  s.timeline = {0, toolbar_h, width, toolbar_h + timeline_h};
  const float rest = std::max(0.0f, height - s.timeline.y1);
  // The bottom panels keep at least `bottom_lines` lines of text; the lane view takes what it
  // needs of the rest, and never less than half of it.
  const float bottom_min = std::min(rest * 0.5f, bottom_lines * line + 30);
  const float lanes_h = std::clamp(lanes_wanted + 16, rest * 0.5f, rest - bottom_min);
  s.lanes = {0, s.timeline.y1, width, s.timeline.y1 + lanes_h};
  // The narrative, where the lesson speaks, gets the widest column.
  const float a = width * 0.3f, b = width * 0.7f;
  s.source = {0, s.lanes.y1, a, height};
  s.narrative = {a, s.lanes.y1, b, height};
  s.side = {b, s.lanes.y1, width, height};
  return s;
}

}  // namespace warpsim::gui
