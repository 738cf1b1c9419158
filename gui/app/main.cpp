// warpsim-gui: step through a kernel's warp-level calls lane by lane.
//
// main owns the state (Model, ViewState) and runs the frame loop: views draw and push commands,
// apply() executes them, the worker thread runs kernels. Headless modes for tests and scripts
// (--screenshot, --probes, --export-png, --bench-frames) are headless.cpp's HeadlessRun, told of
// each frame; --export-svg (figures for slides) needs no window.
#include <GLFW/glfw3.h>
#include <imgui.h>
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
#include "headless.hpp"
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

// --export-svg DIR: no window needed.
int export_svgs(Model& m, ViewState& v, const std::string& dir) {
  if (!m.wanted) {
    std::fprintf(stderr, "warpsim-gui: --export-svg goes with a lesson or a kernel file\n");
    return kExitBadInput;
  }
  const Work work = apply(m, v, {WorkerIdle{}}, 0);  // takes the wanted run, as the worker would
  if (!work.run) return kExitBadInput;
  apply(m, v, done(run_and_load(work.run->first, work.run->second, run_live_gpu)), 0);
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
  HeadlessRun headless(options, model);
  if (headless.on()) view.animate = false;
  Window window;
  window.ignore_mouse(headless.on());  // a pointer left over the window must not put a tooltip in
  std::string error;
  if (!window.open(options.width, options.height, true, error)) {
    std::fprintf(stderr, "warpsim-gui: %s\n", error.c_str());
    return kExitBadInput;
  }
  if (options.bench_frames > 0) glfwSwapInterval(0);  // measure drawing, not the display
  view.content_scale = window.content_scale();

  RunWorker worker(run_live_gpu);
  double first_frame = -1, shown_at = -1, last = clock.now();
  Figure lane_figure;

  while (!model.quit && !window.should_close()) {
    const double frame_start = clock.now();
    // Idle: wait for input (the worker's result is polled at 20 Hz). Playing, running, animating
    // or headless: draw continuously.
    const bool grading = model.exercise && (model.exercise->grading || model.exercise->wanted);
    const bool animating = view.playing || model.running || model.wanted || grading ||
                           frame_start - view.moved_at < 0.5 || headless.on();
    if (animating) {
      glfwPollEvents();
    } else {
      glfwWaitEventsTimeout(0.05);
    }
    const double now = clock.now();
    window.use_font_size(view.font_size);

    // The worker: what came back, as commands; then the job apply() hands it, if it is idle.
    Commands reported;
    if (auto finished = worker.take()) {
      reported.push_back(RunDone{std::make_shared<LoadedRun>(std::move(*finished))});
    }
    if (auto graded = worker.take_grading()) {
      reported.push_back(GradingDone{std::make_shared<Graded>(std::move(*graded))});
    } else if (model.exercise && model.exercise->grading) {
      reported.push_back(GradingProgress{worker.grading_progress()});
    }
    if (!worker.busy()) reported.push_back(WorkerIdle{});
    Work work = apply(model, view, reported, now);
    if (work.run) worker.start(work.run->first, std::move(work.run->second));
    if (work.grading) worker.start_grading(std::move(*work.grading));
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
    int framebuffer_width = 0, framebuffer_height = 0;
    window.framebuffer_size(framebuffer_width, framebuffer_height);
    if (const auto leave = headless.frame_drawn(model, lane_figure, ui.layout, framebuffer_width,
                                                framebuffer_height, display.x, now)) {
      return *leave;
    }
    window.swap();

    commands.push_back(Tick{now - last});
    apply(model, view, commands, now);
    last = now;
    Commands written;
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
      written.push_back(PngWritten{path, write_figure_png(f, fonts, path, error) ? "" : error});
    }
    apply(model, view, written, now);

    Commands next;
    if (const auto leave = headless.frame_applied(model, view, lane_figure,
                                                  (clock.now() - frame_start) * 1000, first_frame,
                                                  shown_at, next)) {
      return *leave;
    }
    apply(model, view, next, now);
  }
  return 0;
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
