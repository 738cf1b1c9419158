// warpsim-gui: step through a kernel's warp-level calls lane by lane.
//
// main owns the state (Model, ViewState) and runs the frame loop: views draw and push commands,
// apply() executes them, the worker thread runs kernels. Headless modes for tests and scripts:
// --screenshot (render a state, write PNG, exit), --bench-frames (frame-time figures),
// --export-png / --export-svg (figures for slides).
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "draw_figure.hpp"
#include "gl_output.hpp"
#include "model/app_model.hpp"
#include "model/gui_options.hpp"
#include "model/live_gpu.hpp"
#include "model/screen_layout.hpp"
#include "run_worker.hpp"
#include "views/views.hpp"
#include "window.hpp"

namespace warpsim::gui {
namespace {

constexpr int kExitBadInput = 2;

// Seconds since this process started (from /proc, so that loading the executable counts too),
// or since main() began where /proc cannot tell.
class LaunchClock {
 public:
  LaunchClock() : main_start_(std::chrono::steady_clock::now()) {
    std::ifstream stat("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    if (paren == std::string::npos) return;
    std::istringstream fields(text.substr(paren + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
      if (i != 22) continue;
      timespec boot{};
      clock_gettime(CLOCK_BOOTTIME, &boot);
      const double started = std::stod(field) / static_cast<double>(sysconf(_SC_CLK_TCK));
      offset_ = static_cast<double>(boot.tv_sec) + static_cast<double>(boot.tv_nsec) * 1e-9 - started;
    }
  }
  // Seconds since main() began; since_launch() adds the time before main.
  double now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - main_start_).count();
  }
  double since_launch() const { return now() + offset_; }

 private:
  std::chrono::steady_clock::time_point main_start_;
  double offset_ = 0;  // seconds from process start to main()
};

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

// Headless: an exercise exits as `warpsim grade` does (when it was graded); a run as `warpsim run`.
int run_exit_status(const Model& m, const GuiOptions& options) {
  if (m.exercise) return options.grade ? grading_exit_status(*m.exercise) : 0;
  return m.run ? m.run->result.exit_status() : kExitBadInput;
}

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

// --export-svg DIR: no window needed.
int export_svgs(Model& m, ViewState& v, const std::string& dir) {
  if (!m.wanted) {
    std::fprintf(stderr, "warpsim-gui: --export-svg goes with a lesson or a kernel file\n");
    return kExitBadInput;
  }
  LoadedRun run = run_and_load(1, *m.wanted, run_live_gpu);
  m.wanted.reset();
  finish_run(m, v, std::move(run), 0);
  refresh(m, v);
  if (m.run->result.status == runner::RunStatus::bad_input) {
    std::fprintf(stderr, "warpsim-gui: %s\n", m.run->result.message.c_str());
    if (!m.run->result.details.empty()) std::fprintf(stderr, "%s\n", m.run->result.details.c_str());
    return kExitBadInput;
  }
  const auto written = export_svg_sequence(m, v, dir);
  if (!written) {
    std::fprintf(stderr, "warpsim-gui: %s\n", written.error().message.c_str());
    return kExitBadInput;
  }
  std::printf("wrote %zu SVG files to %s\n", *written, dir.c_str());
  return m.run ? m.run->result.exit_status() : kExitBadInput;
}

int run(const GuiOptions& options) {
  const LaunchClock clock;
  Model model;
  ViewState view;
  // The lesson browser's catalogue: a dozen small JSON files, read once.
  auto catalogue = std::make_shared<const course::Catalogue>(
      course::load_catalogue(course::lesson_folders(options.lesson_dirs)));
  auto exercises = std::make_shared<const course::ExerciseCatalogue>(
      course::load_exercises(course::lesson_folders(options.lesson_dirs)));
  if (const auto started = init(model, view, options, std::move(catalogue), std::move(exercises));
      !started) {
    std::fprintf(stderr, "warpsim-gui: %s\n", started.error().message.c_str());
    return kExitBadInput;
  }
  if (!options.export_svg_dir.empty()) return export_svgs(model, view, options.export_svg_dir);

  // A kernel file that is not there: say so before opening anything.
  if (const std::string file = model.wanted ? model.wanted->file.file : ""; !file.empty()) {
    std::error_code missing;
    if (!std::filesystem::is_regular_file(file, missing)) {
      std::fprintf(stderr, "warpsim-gui: no kernel file %s\n", file.c_str());
      return kExitBadInput;
    }
  }
  const bool headless = !options.screenshot.empty() || options.bench_frames > 0 ||
                        !options.export_png.empty();
  if (headless) view.animate = false;
  Window window;
  window.ignore_mouse(headless);  // a pointer left over the window must not put a tooltip in
  std::string error;
  if (!window.open(options.width, options.height, true, error)) {
    std::fprintf(stderr, "warpsim-gui: %s\n", error.c_str());
    return kExitBadInput;
  }
  if (options.bench_frames > 0) glfwSwapInterval(0);  // measure drawing, not the display
  view.content_scale = window.content_scale();

  RunWorker worker(run_live_gpu);
  double first_frame = -1, shown_at = -1, last = clock.now();
  std::size_t settled_frames = 0;
  std::vector<double> frame_ms;
  double bench_cpu_start = 0;
  int status = 0;
  // A grading has its own time budget (course::GradeOptions), then explains its first failure.
  const double give_up = model.wanted ? model.wanted->file.timeout_seconds + 30
                                      : course::GradeOptions{}.budget_seconds + 90;
  Figure lane_figure;

  while (!model.quit && !window.should_close()) {
    const double frame_start = clock.now();
    // Idle: wait for input (the worker's result is polled at 20 Hz). Playing, running, animating
    // or headless: draw continuously.
    const bool grading = model.exercise && (model.exercise->grading || model.exercise->wanted);
    const bool animating = view.playing || model.running || model.wanted || grading ||
                           frame_start - view.moved_at < 0.5 || headless;
    if (animating) {
      glfwPollEvents();
    } else {
      glfwWaitEventsTimeout(0.05);
    }
    const double now = clock.now();
    window.use_font_size(view.font_size);

    // The worker: start what apply() asked for, take what came back.
    if (model.wanted && !worker.busy()) {
      const std::uint64_t generation = model.next_generation++;
      model.running = Model::InFlight{generation, now, launch_title(*model.wanted)};
      worker.start(generation, std::move(*model.wanted));
      model.wanted.reset();
    }
    if (model.exercise && model.exercise->wanted && !worker.busy()) {
      model.exercise->grading = model.exercise->wanted->generation;
      model.exercise->grading_since = now;
      worker.start_grading(std::move(*model.exercise->wanted));
      model.exercise->wanted.reset();
    }
    if (auto done = worker.take()) finish_run(model, view, std::move(*done), now);
    if (auto graded = worker.take_grading()) {
      finish_grading(model, view, std::move(*graded), now);
    } else if (model.exercise && model.exercise->grading) {
      grading_progress(model, worker.grading_progress());
    }
    refresh(model, view);

    window.begin_frame();
    const Fonts& fonts = window.fonts();
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float figure_width = display.x - 2 * style.WindowPadding.x - style.ScrollbarSize;
    StepFigureOptions figure = figure_options(model, view, figure_width, fonts.metrics, now);
    figure.measure = [&fonts](std::string_view text, Face face) {
      return measure_text(fonts, text, face);
    };
    lane_figure = model.cache.view   ? build_step_figure(*model.cache.view, model.cache.history_views,
                                                         figure)
                  : model.cache.wait ? build_step_figure(model.cache.wait->view, {}, figure)
                                     : Figure{};
    const Ui ui{fonts, now,
                layout_screen(display.x, display.y, ImGui::GetFrameHeightWithSpacing(),
                              lane_figure.height + 2 * style.WindowPadding.y,
                              model.exercise ? 12.0f : 6.5f),
                lane_figure};
    Commands commands;
    draw_toolbar(model, view, ui, commands);
    draw_timeline(model, view, ui, commands);
    draw_lane_view(model, view, ui, commands);
    draw_source_view(model, view, ui, commands);
    draw_narrative_view(model, view, ui, commands);
    draw_side_panel(model, view, ui, commands);
    draw_help_overlay(model, view, ui, commands);
    handle_shortcuts(model, view, ui, commands);
    window.end_frame();

    if (first_frame < 0) first_frame = clock.since_launch();
    if (settled(model) && shown_at < 0) shown_at = clock.since_launch();
    settled_frames += settled(model) ? 1 : 0;

    // Headless: once the run is in and the layout has settled (a few frames), act and leave.
    if (headless && !settled(model) && now > give_up) {
      std::fprintf(stderr, "warpsim-gui: the %s did not come back within %.0f s\n",
                   grading ? "grading" : "run", give_up);
      return 1;
    }
    if (!options.screenshot.empty() && settled_frames == 4) {
      int w = 0, h = 0;
      window.framebuffer_size(w, h);
      if (!write_window_png(w, h, options.screenshot, error)) {
        std::fprintf(stderr, "warpsim-gui: %s\n", error.c_str());
        return kExitBadInput;
      }
      const float scale = display.x > 0 ? static_cast<float>(w) / display.x : 1;
      if (!options.probes_out.empty() &&
          !write_probes(options.probes_out, model, lane_figure, ui.layout, scale, error)) {
        std::fprintf(stderr, "warpsim-gui: %s\n", error.c_str());
        return kExitBadInput;
      }
      // What the toolbar warned about (a --step past the end, say) is said here too.
      if (model.notice_is_error) std::fprintf(stderr, "warpsim-gui: %s\n", model.notice.c_str());
      status = run_exit_status(model, options);
      if (options.export_png.empty()) break;
    }
    window.swap();

    apply(model, view, commands, now);
    tick(model, view, now, now - last);
    last = now;
    for (const std::string& path : model.png_requests) {
      refresh(model, view);
      StepFigureOptions o = figure_options(model, view, figure_width, fonts.metrics, 1e9);
      o.measure = figure.measure;
      o.contract = true;  // a figure on its own says what the call does, and the lesson's note
      o.reveal = 1;
      if (const course::Note* note = current_note(model, view)) o.caption = {note->text};
      const Figure f = model.cache.view
                           ? build_step_figure(*model.cache.view, model.cache.history_views, o)
                           : Figure{};
      if (write_figure_png(f, fonts, path, error)) {
        model.notice = "wrote " + path;
        model.notice_is_error = false;
      } else {
        model.notice = error;
        model.notice_is_error = true;
      }
    }
    model.png_requests.clear();

    if (!options.export_png.empty() && settled_frames == 4) {
      model.png_requests.push_back(options.export_png);  // written after this frame's apply()
    }
    if (!options.export_png.empty() && settled_frames == 5) {
      if (model.notice_is_error) {
        std::fprintf(stderr, "warpsim-gui: %s\n", model.notice.c_str());
        return kExitBadInput;
      }
      return run_exit_status(model, options);
    }
    if (options.bench_frames > 0 && settled_frames >= 4) {
      if (frame_ms.empty()) bench_cpu_start = cpu_seconds();
      frame_ms.push_back((clock.now() - frame_start) * 1000);
      if (has_steps(model)) {
        // Every frame a new step: decoding and drawing it, arrows and all, is in the figure.
        const std::size_t next = step_by(model.scope, view.step, 1);
        apply(model, view, {next == view.step ? Command{ToEnd{false}} : Command{StepBy{1}}}, now);
      }
      if (frame_ms.size() >= options.bench_frames) break;
    }
  }

  if (options.bench_frames > 0) {
    const double median = percentile(frame_ms, 0.5), p99 = percentile(frame_ms, 0.99);
    std::printf("warpsim-gui bench: %s\n", model.run ? launch_title(model.run->request).c_str() : "");
    std::printf("  trace: %zu steps, %zu warps; the run took %.0f ms (on the worker thread)\n",
                model.run ? model.run->index.step_count() : 0,
                model.run ? model.run->index.warps().size() : 0,
                model.run ? model.run->seconds * 1000 : 0.0);
    std::printf("  first frame: %.0f ms after the process started; trace on screen: %.0f ms\n",
                first_frame * 1000, shown_at * 1000);
    std::printf("  %zu frames, stepping one step a frame: median %.2f ms (%.0f frames/s), "
                "99th percentile %.2f ms (%.0f frames/s)\n",
                frame_ms.size(), median, median > 0 ? 1000 / median : 0.0, p99,
                p99 > 0 ? 1000 / p99 : 0.0);
    std::printf("  CPU time (all threads of this process): %.2f ms a frame; machine load average "
                "%.1f on %ld cores\n",
                (cpu_seconds() - bench_cpu_start) * 1000 / static_cast<double>(frame_ms.size()),
                [] {
                  double load[1] = {0};
                  return getloadavg(load, 1) == 1 ? load[0] : 0.0;
                }(),
                sysconf(_SC_NPROCESSORS_ONLN));
    std::printf("  lane view: %zu arrows' probes, %zu shapes in the last frame's figure\n",
                static_cast<std::size_t>(std::count_if(
                    lane_figure.probes.begin(), lane_figure.probes.end(),
                    [](const Probe& p) { return p.what.starts_with("arrow "); })),
                lane_figure.shapes.size());
    status = run_exit_status(model, options);
  }
  return status;
}

}  // namespace
}  // namespace warpsim::gui

int main(int argc, char** argv) {
  using namespace warpsim::gui;
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  const auto options = parse_gui_options(args);
  if (!options) {
    std::fprintf(stderr, "warpsim-gui: %s\n(warpsim-gui --help for the options)\n",
                 options.error().message.c_str());
    return kExitBadInput;
  }
  if (options->help) {
    std::printf("%s", gui_usage().c_str());
    return 0;
  }
  return run(*options);
}
