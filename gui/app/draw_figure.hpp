// Paints a Figure with ImGui's draw list: on screen (the lane view) and offscreen (PNG export).
#pragma once

#include "model/figure.hpp"
#include "window.hpp"

struct ImDrawList;

namespace warpsim::gui {

// Paints `figure` with its top-left corner at (x, y) in `list`'s coordinates.
void draw_figure(ImDrawList& list, const Figure& figure, float x, float y, const Fonts& fonts);

// The width of `text` in `face`, as draw_figure paints it.
float measure_text(const Fonts& fonts, std::string_view text, Face face);

}  // namespace warpsim::gui
