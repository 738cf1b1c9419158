#include "model/palette.hpp"

#include <array>

namespace warpsim::gui {

LaneStyle lane_style(LaneState state) {
  using namespace okabe_ito;
  switch (state) {
    case LaneState::took_part:
      return {tint(sky_blue, 0.40f), blue, false, Pattern::none, blue, rgb(0x1A1A1A), "on"};
    case LaneState::inactive:
      return {tint(orange, 0.22f), orange, true, Pattern::hatched, orange, rgb(0x1A1A1A), "div"};
    case LaneState::not_in_mask:
      return {rgb(0xF4F4F4), rgb(0xA0A0A0), true, Pattern::none, rgb(0xA0A0A0), rgb(0x6B6B6B),
              "off"};
    case LaneState::exited:
      return {rgb(0xD4D4D4), rgb(0x505050), false, Pattern::crossed, rgb(0x505050),
              rgb(0x1A1A1A), "exit"};
  }
  return {};
}

Rgba group_colour(int group) {
  using namespace okabe_ito;
  constexpr std::array<Rgba, 7> kColours = {orange, sky_blue, bluish_green, yellow,
                                            reddish_purple, vermillion, blue};
  const Rgba c = kColours[static_cast<std::size_t>(group < 0 ? 0 : group) % kColours.size()];
  return tint(c, 0.55f);
}

namespace {
constexpr std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
}  // namespace

std::string_view group_letter(int group) {
  if (group < 0) return "";
  return kLetters.substr(static_cast<std::size_t>(group) % kLetters.size(), 1);
}

}  // namespace warpsim::gui
