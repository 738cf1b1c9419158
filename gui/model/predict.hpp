// Predict mode: what lanes received stays hidden until the learner has typed a guess; a guess
// counts when it reads as the same value as the simulator's, however it is written ("16" for
// 16, "0x10" for 0x00000010, "-0.5" for -0.50).
#pragma once

#include <string_view>

namespace warpsim::gui {

bool guess_matches(std::string_view guess, std::string_view answer);

struct PredictScore {
  int right = 0;
  int asked = 0;
  friend constexpr bool operator==(const PredictScore&, const PredictScore&) = default;
};

}  // namespace warpsim::gui
