#include "model/gui_options.hpp"

#include <charconv>
#include <filesystem>
#include <utility>

#include <CLI/CLI.hpp>

#include "kernel_file_options.hpp"
#include "model/tabs.hpp"
#include "warpsim/course.hpp"

namespace warpsim::gui {
namespace {

namespace fs = std::filesystem;

template <class T>
std::optional<T> number(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::string gui_usage() {
  return std::string("usage: warpsim-gui [LESSON [--preset NAME]] [options]\n"
         "       warpsim-gui FILE.cu --kernel NAME --grid G --block B [--arg SPEC]... [options]\n"
         "       warpsim-gui --exercise ID [FILE.cu] [--grade] [options]\n"
         "\n"
         "Steps through a lesson or a kernel's warp-level calls lane by lane. With neither, opens\n"
         "the butterfly reduction lesson. LESSON is an id (butterfly-reduction, 4) or a lesson\n"
         "folder (warpsim lessons lists them). FILE.cu takes the flags of `warpsim run` (one\n"
         "definition for both): --kernel, --grid, --block, --arg, --policy, --seed, --order-seed,\n"
         "--max-steps, --timeout, --shared, --arch, -I, -D, --check (races, uninit, bounds, all:\n"
         "memory checks, shown among the diagnostics); a lesson takes the same but for --kernel,\n"
         "--grid, --block and --arg, which it brings.\n"
         "--exercise ID opens a classroom exercise (warpsim exercises lists them) with FILE.cu\n"
         "(default: its starter) to grade: edit the file in your editor, press G to grade it, and\n"
         "step through a failing case lane by lane next to the reference solution's values.\n"
         "\n"
         "  --preset NAME       a lesson's preset (its other inputs)\n"
         "  --lessons DIR       lessons and exercises from DIR too (as $WARPSIM_LESSONS adds them)\n"
         "  --gpu-record FILE   compare with this recorded GPU run (a lesson's gpu/*.json.gz)\n"
         "  --gpu               run it on this machine's GPU too, and compare (CUDA builds)\n"
         "  --step N            start at the N-th step (1-based) of the warp shown\n"
         "  --warp B:W          show warp W of block B (default: the first warp with steps)\n"
         "  --all-warps         step through every warp's steps in trace order\n"
         "  --format F          values as natural, decimal, hex or binary\n"
         "  --watch LANE        highlight a lane (and break when its value changes)\n"
         "  --predict           predict mode: outputs hidden until you guess\n"
         "  --font-size PX      text size (default 15, times the display's scale)\n"
         "  --history N         earlier steps drawn above the current one (default 4)\n"
         "  --size WxH          window size (default 1280x720)\n"
         "  --grade             with --exercise: grade the file at once\n"
         "  --tab NAME          side tab: ") + tab_names(", ") + "\n"
         "  --show-help         open with the keyboard shortcuts shown\n"
         "\n"
         "Without a person:\n"
         "  --screenshot OUT.png   render that state, write the window as PNG, exit\n"
         "  --probes OUT.json      with --screenshot: the pixels it promises (for tests)\n"
         "  --export-png OUT.png   write the current step's figure as PNG, exit\n"
         "  --export-svg DIR       write every step of the warp as DIR/step-NNN.svg, exit\n"
         "                         (needs no display)\n"
         "  --bench-frames N       draw N frames, print frame times and time to first frame\n";
}

Expected<GuiOptions> parse_gui_options(const std::vector<std::string>& args) {
  GuiOptions o;
  cli::KernelFileFlags flags;
  std::vector<std::string> positional;
  CLI::App app{"warpsim-gui", "warpsim-gui"};
  app.set_help_flag();  // --help is an option here (main prints gui_usage())
  app.add_flag("-h,--help", o.help);
  app.add_option("target", positional);
  cli::add_kernel_file_options(app, flags);  // `warpsim run`'s own definition
  app.add_flag("--all-warps", o.all_warps);
  app.add_flag("--predict", o.predict);
  app.add_flag("--gpu", o.live_gpu);
  app.add_flag("--show-help", o.show_help);
  app.add_flag("--grade", o.grade);
  app.add_option("--preset", o.preset);
  app.add_option("--exercise", o.exercise);
  app.add_option("--lessons", o.lesson_dirs)->allow_extra_args(false);
  app.add_option("--gpu-record", o.gpu_record);
  app.add_option("--screenshot", o.screenshot);
  app.add_option("--probes", o.probes_out);
  app.add_option("--export-png", o.export_png);
  app.add_option("--export-svg", o.export_svg_dir);
  // The view's own options, read as text and checked below with messages that say what fits.
  std::string step, warp, format, watch, font_size, history, tab, bench_frames, size;
  for (auto [name, text] : {std::pair{"--step", &step}, {"--warp", &warp}, {"--format", &format},
                            {"--watch", &watch}, {"--font-size", &font_size},
                            {"--history", &history}, {"--tab", &tab},
                            {"--bench-frames", &bench_frames}, {"--size", &size}}) {
    app.add_option(name, *text);
  }
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them so
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }
  const auto given = [&](const char* name) { return app.get_option(name)->count() > 0; };
  if (given("--step")) {
    const auto n = number<std::size_t>(step);
    if (!n || *n == 0) return fail("--step '" + step + "': give a step number, 1 or more");
    o.step = *n;
  }
  if (given("--warp")) {
    const auto colon = warp.find(':');
    const auto b = number<std::uint64_t>(warp.substr(0, colon));
    const auto w = colon == std::string::npos ? std::nullopt
                                              : number<std::uint32_t>(warp.substr(colon + 1));
    if (!b || !w) return fail("--warp '" + warp + "': give BLOCK:WARP, e.g. 0:1");
    o.warp = WarpKey{*b, *w};
  }
  if (given("--format")) {
    const auto f = value_format_from_string(format);
    if (!f) return fail("--format '" + format + "': use natural, decimal, hex or binary");
    o.format = *f;
  }
  if (given("--watch")) {
    const auto n = number<int>(watch);
    if (!n || *n < 0 || *n >= kWarpSize) return fail("--watch '" + watch + "': give a lane, 0 to 31");
    o.watch = *n;
  }
  if (given("--font-size")) {
    const auto n = number<float>(font_size);
    if (!n || *n < 8 || *n > 48) return fail("--font-size '" + font_size + "': give 8 to 48 pixels");
    o.font_size = *n;
  }
  if (given("--history")) {
    const auto n = number<int>(history);
    if (!n || *n < 0 || *n > 16) return fail("--history '" + history + "': give 0 to 16 steps");
    o.history = *n;
  }
  if (given("--tab")) {
    if (!tab_named(tab)) return fail("--tab '" + tab + "': use " + tab_names());
    o.tab = tab;
  }
  if (given("--bench-frames")) {
    const auto n = number<std::size_t>(bench_frames);
    if (!n || *n == 0) return fail("--bench-frames '" + bench_frames + "': give a number of frames");
    o.bench_frames = *n;
  }
  if (given("--size")) {
    const auto x = size.find('x');
    const auto w = number<int>(size.substr(0, x));
    const auto h = x == std::string::npos ? std::nullopt : number<int>(size.substr(x + 1));
    if (!w || !h || *w < 320 || *h < 240 || *w > 8192 || *h > 8192) {
      return fail("--size '" + size + "': give WIDTHxHEIGHT, at least 320x240");
    }
    o.width = *w;
    o.height = *h;
  }
  if (o.help) return o;
  if (positional.size() > 1) {
    return fail("one kernel file at a time (got '" + positional[0] + "' and '" + positional[1] +
                   "')");
  }
  const bool have_kernel = !flags.kernel.empty(), have_grid = given("--grid"),
             have_block = given("--block");
  const bool launch_flags = have_kernel || have_grid || have_block || !flags.args.empty();
  if (!o.exercise.empty()) {
    // The exercise brings its kernel and its cases; the file is the one graded.
    if (launch_flags || !o.preset.empty()) {
      return fail(
          "--kernel, --grid, --block, --arg and --preset do not go with --exercise: the "
          "exercise brings its kernel and its cases");
    }
    if (!positional.empty()) o.exercise_file = positional[0];
    return o;
  }
  if (o.grade) return fail("--grade goes with --exercise ID [FILE.cu]");
  const std::string named = positional.empty() ? std::string() : positional[0];
  std::error_code error;
  const bool kernel_file = named.ends_with(".cu") || named.ends_with(".cuh") ||
                           (!named.empty() && fs::is_regular_file(named, error));
  if (!kernel_file) {
    // A lesson, by id or folder (resolved against the catalogue when the app starts).
    if (launch_flags) {
      return fail("--kernel, --grid, --block and --arg go with a kernel file (FILE.cu); a "
                  "lesson brings its own (edit them in the Inputs tab, or pick a --preset)");
    }
    o.lesson = named.empty() ? std::string(course::kDefaultLesson) : named;
    auto settings = cli::launch_settings(flags);  // --policy, --seed, --timeout, ... apply too
    if (!settings) return settings.error();
    o.request = std::move(*settings);
    return o;
  }
  if (!o.preset.empty()) return fail("--preset goes with a lesson, not a kernel file");
  if (!have_kernel) return fail("--kernel NAME is needed with a kernel file");
  if (!have_grid || !have_block) return fail("--grid and --block are needed with a kernel file");
  auto request = cli::kernel_file_request(named, flags);
  if (!request) return request.error();
  o.request = std::move(*request);
  o.grid_text = flags.grid;
  o.block_text = flags.block;
  o.arg_texts = flags.args;
  return o;
}

}  // namespace warpsim::gui
