// Where each panel goes in the window: fixed regions (no docking), recomputed from the window's
// size every frame. The lane view gets the space its figure needs, up to most of the window.
//
//   toolbar                                   (two lines of controls)
//   timeline                                  (one bar: the scope's steps, diagnostics marked)
//   lane view                                 (the figure of the current step)
//   source | narrative | tabs: warps, diagnostics, inputs, predict, GPU
#pragma once

#include "model/figure.hpp"

namespace warpsim::gui {

struct ScreenLayout {
  Box toolbar, timeline, lanes, source, narrative, side;
};

// `line`: the height of a line of UI text; `lanes_wanted`: the lane figure's height;
// `bottom_lines`: the lines of text the bottom panels keep at least (an exercise's cases want
// more than a lesson's narrative).
ScreenLayout layout_screen(float width, float height, float line, float lanes_wanted,
                           float bottom_lines = 6.5f);

}  // namespace warpsim::gui
