#include "headless.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "gl_output.hpp"
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

namespace {

constexpr int kExitBadInput = 2;

// An exercise exits as `warpsim grade` does (when it was graded); a run as `warpsim run`.
int run_exit_status(const Model& m, const GuiOptions& options) {
  if (m.exercise) return options.grade ? grading_exit_status(*m.exercise) : 0;
  return m.run ? m.run->result.exit_status() : kExitBadInput;
}

}  // namespace

HeadlessRun::HeadlessRun(const GuiOptions& options, const Model& model)
    : options_(options),
      on_(!options.screenshot.empty() || options.bench_frames > 0 || !options.export_png.empty()),
      // A grading has its own time budget (course::GradeOptions), then explains its first failure.
      give_up_(model.wanted ? model.wanted->file.timeout_seconds + 30
                            : course::GradeOptions{}.budget_seconds + 90) {}

std::optional<int> HeadlessRun::frame_drawn(const Model& m, const Figure& figure,
                                            const ScreenLayout& layout, int framebuffer_width,
                                            int framebuffer_height, float display_width,
                                            double now) {
  if (!on_) return std::nullopt;
  if (!settled(m)) {
    if (now <= give_up_) return std::nullopt;
    const bool grading = m.exercise && (m.exercise->grading || m.exercise->wanted);
    std::fprintf(stderr, "warpsim-gui: the %s did not come back within %.0f s\n",
                 grading ? "grading" : "run", give_up_);
    return 1;
  }
  ++settled_frames_;
  if (options_.screenshot.empty() || settled_frames_ != 4) return std::nullopt;
  std::string error;
  if (!write_window_png(framebuffer_width, framebuffer_height, options_.screenshot, error)) {
    std::fprintf(stderr, "warpsim-gui: %s\n", error.c_str());
    return kExitBadInput;
  }
  const float scale = display_width > 0 ? static_cast<float>(framebuffer_width) / display_width : 1;
  if (!options_.probes_out.empty() &&
      !write_probes(options_.probes_out, m, figure, layout, scale, error)) {
    std::fprintf(stderr, "warpsim-gui: %s\n", error.c_str());
    return kExitBadInput;
  }
  // What the toolbar warned about (a --step past the end, say) is said here too.
  if (m.notice_is_error) std::fprintf(stderr, "warpsim-gui: %s\n", m.notice.c_str());
  if (!options_.export_png.empty()) return std::nullopt;  // leaves after the export
  return run_exit_status(m, options_);
}

std::optional<int> HeadlessRun::frame_applied(const Model& m, const ViewState& v,
                                              const Figure& figure, double frame_ms,
                                              double first_frame, double shown_at,
                                              Commands& next) {
  if (!on_ || settled_frames_ < 4) return std::nullopt;
  if (!options_.export_png.empty()) {
    // Written after the fourth settled frame's apply(), as the E key's export is.
    if (settled_frames_ == 4) next.push_back(ExportPng{options_.export_png});
    if (settled_frames_ == 5) {
      if (m.notice_is_error) {
        std::fprintf(stderr, "warpsim-gui: %s\n", m.notice.c_str());
        return kExitBadInput;
      }
      return run_exit_status(m, options_);
    }
  }
  if (options_.bench_frames > 0) {
    bench_.add(frame_ms);
    if (bench_.frames() >= options_.bench_frames) {
      bench_.print(m, figure, first_frame, shown_at);
      return run_exit_status(m, options_);
    }
    if (has_steps(m)) {
      // Every frame a new step: decoding and drawing it, arrows and all, is in the figure.
      const std::size_t to = step_by(m.scope, v.step, 1);
      next.push_back(to == v.step ? Command{ToEnd{false}} : Command{StepBy{1}});
    }
  }
  return std::nullopt;
}

}  // namespace warpsim::gui
