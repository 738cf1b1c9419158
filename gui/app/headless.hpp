// What warpsim-gui does headless, for tests and figures without a person: --probes (where the
// lane figure promises which colours, in framebuffer pixels) and --bench-frames (frame times of
// stepping one step a frame, printed as figures). The main loop (main.cpp) calls them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/app_model.hpp"
#include "model/figure.hpp"
#include "model/screen_layout.hpp"

namespace warpsim::gui {

// --probes FILE: the panels' boxes and the lane figure's probes on screen, as JSON.
bool write_probes(const std::string& path, const Model& m, const Figure& figure,
                  const ScreenLayout& layout, float scale, std::string& error);

// --bench-frames N: each settled frame's time, then the report on stdout.
class FrameBench {
 public:
  void add(double frame_ms);
  std::size_t frames() const { return frame_ms_.size(); }
  // first_frame, shown_at: seconds after the process started.
  void print(const Model& m, const Figure& figure, double first_frame, double shown_at) const;

 private:
  std::vector<double> frame_ms_;
  double cpu_start_ = 0;
};

}  // namespace warpsim::gui
