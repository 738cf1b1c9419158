// A step in words, beside a lesson's own notes (the GUI's narrative panel, the terminal
// walkthrough): who took part, what each lane received (with one lane as the example), and what
// is undefined.
//
//   narrate_step(v, -1)[1] ==
//     "Each lane received the value of its partner lane i ^ 16: lane 0 received 16 from lane 16,
//      and lane 16 received 0 from lane 0: partners swap values."
#pragma once

#include <string>
#include <vector>

#include "warpsim/step_view.hpp"

namespace warpsim {

// `example_lane`: the lane to speak of (the watched lane), or -1 for the lowest participant.
std::vector<std::string> narrate_step(const StepView& v, int example_lane);

// "lanes 0-15" or "lane 3".
std::string lanes_phrase(LaneMask lanes);

}  // namespace warpsim
