// What warpsim-gui does headless, for tests and figures without a person: --screenshot (and
// --probes: where the lane figure promises which colours, in framebuffer pixels), --export-png
// and --bench-frames (frame times of stepping one step a frame, printed as figures). The frame
// loop (main.cpp) tells a HeadlessRun of each frame; it acts once the run is in and the layout
// has settled, and says when the app leaves and with which status.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/app_model.hpp"
#include "model/figure.hpp"
#include "model/gui_options.hpp"
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

// The headless modes of one run of the app, frame by frame.
class HeadlessRun {
 public:
  // `model` as init() left it: what it waits for sets how long it may take.
  HeadlessRun(const GuiOptions& options, const Model& model);
  bool on() const { return on_; }
  // The frame is drawn, not yet shown: past the time budget, leave with 1; at the fourth settled
  // frame, the screenshot and its probes (a status: leave with it, unless a PNG export follows).
  std::optional<int> frame_drawn(const Model& m, const Figure& figure, const ScreenLayout& layout,
                                 int framebuffer_width, int framebuffer_height, float display_width,
                                 double now);
  // After apply(): the commands for the next frame (the PNG export, the bench's next step), or the
  // status to leave with. first_frame, shown_at: for the bench's report (seconds after launch).
  std::optional<int> frame_applied(const Model& m, const ViewState& v, const Figure& figure,
                                   double frame_ms, double first_frame, double shown_at,
                                   Commands& next);

 private:
  GuiOptions options_;
  bool on_ = false;
  double give_up_ = 0;  // seconds after main() began
  std::size_t settled_frames_ = 0;
  FrameBench bench_;
};

}  // namespace warpsim::gui
