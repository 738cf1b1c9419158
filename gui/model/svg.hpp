// A Figure as SVG, for slides and documents: the same shapes the screen shows, text in DejaVu
// Sans (values in DejaVu Sans Mono) with generic fallbacks.
#pragma once

#include <string>

#include "model/figure.hpp"

namespace warpsim::gui {

std::string to_svg(const Figure& figure);


}  // namespace warpsim::gui
