#include "headless.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "warpsim/trace.hpp"

namespace warpsim::gui {
namespace {

// CPU seconds this process has used, every thread (Mesa's rasterizer threads too).
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto s = [](timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto at = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(at, values.size() - 1)];
}

}  // namespace

// --probes: the pixels the lane figure promises, in framebuffer pixels, and the panels' boxes.
bool write_probes(const std::string& path, const Model& m, const Figure& figure,
                  const ScreenLayout& layout, float scale, std::string& error) {
  std::ofstream out(path);
  const auto box = [&](Box b) {
    char text[128];
    std::snprintf(text, sizeof text, "[%.1f, %.1f, %.1f, %.1f]", static_cast<double>(b.x0 * scale),
                  static_cast<double>(b.y0 * scale), static_cast<double>(b.x1 * scale),
                  static_cast<double>(b.y1 * scale));
    return std::string(text);
  };
  out << "{\n  \"panels\": {\"toolbar\": " << box(layout.toolbar)
      << ", \"timeline\": " << box(layout.timeline) << ", \"lanes\": " << box(layout.lanes)
      << ", \"source\": " << box(layout.source) << ", \"narrative\": " << box(layout.narrative)
      << ", \"side\": " << box(layout.side) << "},\n  \"probes\": [";
  bool first = true;
  const Box visible = m.figure_visible;
  for (const Probe& p : figure.probes) {
    const Point at{m.figure_origin.x + p.at.x, m.figure_origin.y + p.at.y};
    // Only what is on screen: clear of the panel's edges and scroll bars.
    if (!visible.inset(12).contains(at)) continue;
    char text[256];
    std::snprintf(text, sizeof text, "%s\n    {\"x\": %.1f, \"y\": %.1f, \"rgb\": [%d, %d, %d], \"what\": ",
                  first ? "" : ",", static_cast<double>(at.x * scale),
                  static_cast<double>(at.y * scale), p.colour.r, p.colour.g, p.colour.b);
    out << text << json_string(p.what) << "}";
    first = false;
  }
  out << "\n  ]\n}\n";
  if (!out) error = "could not write " + path;
  return static_cast<bool>(out);
}

void FrameBench::add(double frame_ms) {
  if (frame_ms_.empty()) cpu_start_ = cpu_seconds();
  frame_ms_.push_back(frame_ms);
}

void FrameBench::print(const Model& m, const Figure& figure, double first_frame,
                       double shown_at) const {
  const double median = percentile(frame_ms_, 0.5), p99 = percentile(frame_ms_, 0.99);
  std::printf("warpsim-gui bench: %s\n", m.run ? launch_title(m.run->request).c_str() : "");
  std::printf("  trace: %zu steps, %zu warps; the run took %.0f ms (on the worker thread)\n",
              m.run ? m.run->index.step_count() : 0,
              m.run ? m.run->index.warps().size() : 0,
              m.run ? m.run->seconds * 1000 : 0.0);
  std::printf("  first frame: %.0f ms after the process started; trace on screen: %.0f ms\n",
              first_frame * 1000, shown_at * 1000);
  std::printf("  %zu frames, stepping one step a frame: median %.2f ms (%.0f frames/s), "
              "99th percentile %.2f ms (%.0f frames/s)\n",
              frame_ms_.size(), median, median > 0 ? 1000 / median : 0.0, p99,
              p99 > 0 ? 1000 / p99 : 0.0);
  std::printf("  CPU time (all threads of this process): %.2f ms a frame; machine load average "
              "%.1f on %ld cores\n",
              (cpu_seconds() - cpu_start_) * 1000 / static_cast<double>(frame_ms_.size()),
              [] {
                double load[1] = {0};
                return getloadavg(load, 1) == 1 ? load[0] : 0.0;
              }(),
              sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("  lane view: %zu arrows' probes, %zu shapes in the last frame's figure\n",
              static_cast<std::size_t>(std::count_if(
                  figure.probes.begin(), figure.probes.end(),
                  [](const Probe& p) { return p.what.starts_with("arrow "); })),
              figure.shapes.size());
}

}  // namespace warpsim::gui
