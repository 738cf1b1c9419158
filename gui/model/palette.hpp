// Colours and second signals. The palette is Okabe and Ito's (safe for the common colour-vision
// deficiencies), and colour is never the only signal: each lane state also has a pattern, an
// outline and a short tag printed in the lane's cell, undefined results a "?", GPU differences a
// "!" and a thick outline, match groups a letter.
#pragma once

#include <string_view>

#include "model/figure.hpp"
#include "warpsim/step_view.hpp"

namespace warpsim::gui {

// Okabe-Ito (2008), "Color Universal Design".
namespace okabe_ito {
inline constexpr Rgba black = rgb(0x000000);
inline constexpr Rgba orange = rgb(0xE69F00);
inline constexpr Rgba sky_blue = rgb(0x56B4E9);
inline constexpr Rgba bluish_green = rgb(0x009E73);
inline constexpr Rgba yellow = rgb(0xF0E442);
inline constexpr Rgba blue = rgb(0x0072B2);
inline constexpr Rgba vermillion = rgb(0xD55E00);
inline constexpr Rgba reddish_purple = rgb(0xCC79A7);
}  // namespace okabe_ito

// `colour` mixed with white: 0 gives white, 1 the colour.
constexpr Rgba tint(Rgba colour, float amount) {
  const auto mix = [&](std::uint8_t c) {
    return static_cast<std::uint8_t>(255.0f + (static_cast<float>(c) - 255.0f) * amount + 0.5f);
  };
  return {mix(colour.r), mix(colour.g), mix(colour.b), colour.a};
}

enum class Pattern : std::uint8_t {
  none,
  hatched,  // diagonal lines
  crossed,  // an X
};

struct LaneStyle {
  Rgba fill;
  Rgba outline;
  bool dashed_outline = false;
  Pattern pattern = Pattern::none;
  Rgba pattern_colour;
  Rgba text;
  std::string_view tag;  // printed in the lane's state cell: "on", "div", "off", "exit"
};

LaneStyle lane_style(LaneState state);

// Every other colour the figures use, by role.
struct Palette {
  Rgba ink = rgb(0x1A1A1A);             // text
  Rgba faint_ink = rgb(0x6B6B6B);       // labels, lane numbers
  Rgba rule = rgb(0xBDBDBD);            // thin separators
  Rgba arrow = okabe_ito::blue;         // shuffle arrows: source lane -> destination lane
  Rgba arrow_watched = okabe_ito::black;
  Rgba arrow_undefined = okabe_ito::vermillion;  // read a lane that gave no value
  Rgba watched_band = tint(okabe_ito::yellow, 0.45f);  // the watched lane's column
  Rgba bit_set = rgb(0x303030);
  Rgba bit_clear = rgb(0xFFFFFF);
  Rgba undefined = okabe_ito::vermillion;
  Rgba differs = okabe_ito::reddish_purple;  // the GPU's value differs from the simulator's
  Rgba diagnostic = okabe_ito::vermillion;
  Rgba diagnostic_fill = tint(okabe_ito::vermillion, 0.15f);
  Rgba barrier = rgb(0x404040);
  Rgba hidden = rgb(0xEDEDED);  // predict mode: a value not revealed yet
  Rgba current_line = tint(okabe_ito::yellow, 0.55f);
  Rgba timeline_mark = okabe_ito::vermillion;
  Rgba result = tint(okabe_ito::bluish_green, 0.35f);  // a reduction's result, a ballot's word
};
inline constexpr Palette kPalette{};

// Match groups: colour i and letter i ("A", "B", ...; after "Z", "a"...).
Rgba group_colour(int group);
std::string_view group_letter(int group);

}  // namespace warpsim::gui
