// Pixels out of OpenGL into PNG files (stb_image_write): the window as it was just rendered
// (--screenshot), and a figure rendered offscreen at its own size (Export PNG, --export-png),
// painted by the same draw_figure() as the screen.
#pragma once

#include <string>

#include "model/figure.hpp"
#include "window.hpp"

namespace warpsim::gui {

// The back buffer as rendered (call after rendering, before swapping).
bool write_window_png(int width, int height, const std::string& path, std::string& error);

// `figure` rendered into an offscreen framebuffer of its size, written as PNG. Call between
// frames (ImGui's shared draw data must be set up: after the first NewFrame).
bool write_figure_png(const Figure& figure, const Fonts& fonts, const std::string& path,
                      std::string& error);

}  // namespace warpsim::gui
