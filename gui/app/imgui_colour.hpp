// The palette's colours (model/palette.hpp, plain RGBA) as ImGui takes them.
#pragma once

#include <imgui.h>

#include "model/figure.hpp"

namespace warpsim::gui {

inline ImU32 colour(Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }
inline ImVec4 colour4(Rgba c) {
  return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f);
}

}  // namespace warpsim::gui
