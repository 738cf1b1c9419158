#include "model/gui_options.hpp"

#include <charconv>
#include <filesystem>

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

bool takes_value(const std::string& flag) {
  for (const char* f :
       {"--kernel",     "--grid",      "--block",      "--arg",        "--policy",
        "--seed",       "--max-steps", "--timeout",    "--shared",     "--step",
        "--warp",       "--format",    "--watch",      "--font-size",  "--history",
        "--screenshot", "--probes",    "--export-png", "--export-svg", "--bench-frames",
        "--size",       "--preset",    "--gpu-record", "--tab",        "--exercise",   "--check",
        "--lessons"}) {
    if (flag == f) return true;
  }
  return false;
}

}  // namespace

std::string gui_usage() {
  return std::string("usage: warpsim-gui [LESSON [--preset NAME]] [options]\n"
         "       warpsim-gui FILE.cu --kernel NAME --grid G --block B [--arg SPEC]... [options]\n"
         "       warpsim-gui --exercise ID [FILE.cu] [--grade] [options]\n"
         "\n"
         "Steps through a lesson or a kernel's warp-level calls lane by lane. With neither, opens\n"
         "the butterfly reduction lesson. LESSON is an id (butterfly-reduction, 4) or a lesson\n"
         "folder (warpsim lessons lists them). FILE.cu takes the flags of `warpsim run`:\n"
         "--kernel, --grid, --block, --arg, --policy, --seed, --max-steps, --timeout, --shared,\n"
         "--check (races, uninit, all: memory checks, shown among the diagnostics).\n"
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
  bool have_grid = false, have_block = false, have_kernel = false;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
      continue;
    }
    if (a == "--all-warps") {
      o.all_warps = true;
      continue;
    }
    if (a == "--predict") {
      o.predict = true;
      continue;
    }
    if (a == "--gpu") {
      o.live_gpu = true;
      continue;
    }
    if (a == "--show-help") {
      o.show_help = true;
      continue;
    }
    if (a == "--grade") {
      o.grade = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      positional.push_back(a);
      continue;
    }
    if (!takes_value(a)) return fail("unknown option '" + a + "'");
    if (i + 1 >= args.size()) return fail(a + " needs a value");
    const std::string& v = args[++i];
    runner::KernelFileRequest& r = o.request;
    if (a == "--kernel") {
      r.kernel = v;
      have_kernel = true;
    } else if (a == "--grid" || a == "--block") {
      const auto dim = runner::parse_dim3(v);
      if (!dim) return fail(a + ": " + dim.error().message);
      (a == "--grid" ? r.grid : r.block) = *dim;
      (a == "--grid" ? o.grid_text : o.block_text) = v;
      (a == "--grid" ? have_grid : have_block) = true;
    } else if (a == "--arg") {
      const auto spec = runner::parse_arg_spec(v);
      if (!spec) {
        return fail("--arg " + std::to_string(o.arg_texts.size() + 1) + " '" + v +
                       "': " + spec.error().message);
      }
      r.args.push_back(*spec);
      o.arg_texts.push_back(v);
    } else if (a == "--policy") {
      if (v == "maximal") {
        r.policy = ConvergencePolicy::maximal;
      } else if (v == "interleaved") {
        r.policy = ConvergencePolicy::interleaved;
      } else {
        return fail("--policy '" + v + "': use maximal or interleaved");
      }
    } else if (a == "--seed") {
      const auto n = number<std::uint64_t>(v);
      if (!n) return fail("--seed '" + v + "': not a non-negative integer");
      r.seed = *n;
    } else if (a == "--max-steps") {
      const auto n = number<std::uint64_t>(v);
      if (!n || *n == 0) return fail("--max-steps '" + v + "': not a positive integer");
      r.max_steps = *n;
    } else if (a == "--timeout") {
      const auto n = number<double>(v);
      if (!n || !(*n > 0) || *n > 86400) {
        return fail("--timeout '" + v + "': give seconds, more than 0 and at most 86400");
      }
      r.timeout_seconds = *n;
    } else if (a == "--check") {
      if (const Expected<void> known = runner::add_memory_checks(v, r); !known) {
        return known.error();
      }
    } else if (a == "--shared") {
      const auto n = number<std::size_t>(v);
      if (!n) return fail("--shared '" + v + "': give a number of bytes");
      r.shared_bytes = *n;
    } else if (a == "--step") {
      const auto n = number<std::size_t>(v);
      if (!n || *n == 0) return fail("--step '" + v + "': give a step number, 1 or more");
      o.step = *n;
    } else if (a == "--warp") {
      const auto colon = v.find(':');
      const auto b = number<std::uint64_t>(v.substr(0, colon));
      const auto w = colon == std::string::npos ? std::nullopt
                                                : number<std::uint32_t>(v.substr(colon + 1));
      if (!b || !w) return fail("--warp '" + v + "': give BLOCK:WARP, e.g. 0:1");
      o.warp = WarpKey{*b, *w};
    } else if (a == "--format") {
      const auto f = value_format_from_string(v);
      if (!f) return fail("--format '" + v + "': use natural, decimal, hex or binary");
      o.format = *f;
    } else if (a == "--watch") {
      const auto n = number<int>(v);
      if (!n || *n < 0 || *n >= kWarpSize) return fail("--watch '" + v + "': give a lane, 0 to 31");
      o.watch = *n;
    } else if (a == "--font-size") {
      const auto n = number<float>(v);
      if (!n || *n < 8 || *n > 48) return fail("--font-size '" + v + "': give 8 to 48 pixels");
      o.font_size = *n;
    } else if (a == "--history") {
      const auto n = number<int>(v);
      if (!n || *n < 0 || *n > 16) return fail("--history '" + v + "': give 0 to 16 steps");
      o.history = *n;
    } else if (a == "--tab") {
      if (!tab_named(v)) return fail("--tab '" + v + "': use " + tab_names());
      o.tab = v;
    } else if (a == "--preset") {
      o.preset = v;
    } else if (a == "--exercise") {
      o.exercise = v;
    } else if (a == "--lessons") {
      o.lesson_dirs.push_back(v);
    } else if (a == "--gpu-record") {
      o.gpu_record = v;
    } else if (a == "--screenshot") {
      o.screenshot = v;
    } else if (a == "--probes") {
      o.probes_out = v;
    } else if (a == "--export-png") {
      o.export_png = v;
    } else if (a == "--export-svg") {
      o.export_svg_dir = v;
    } else if (a == "--bench-frames") {
      const auto n = number<std::size_t>(v);
      if (!n || *n == 0) return fail("--bench-frames '" + v + "': give a number of frames");
      o.bench_frames = *n;
    } else if (a == "--size") {
      const auto x = v.find('x');
      const auto w = number<int>(v.substr(0, x));
      const auto h = x == std::string::npos ? std::nullopt : number<int>(v.substr(x + 1));
      if (!w || !h || *w < 320 || *h < 240 || *w > 8192 || *h > 8192) {
        return fail("--size '" + v + "': give WIDTHxHEIGHT, at least 320x240");
      }
      o.width = *w;
      o.height = *h;
    }
  }
  if (o.help) return o;
  if (positional.size() > 1) {
    return fail("one kernel file at a time (got '" + positional[0] + "' and '" + positional[1] +
                   "')");
  }
  const bool launch_flags = have_kernel || have_grid || have_block || !o.arg_texts.empty();
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
    return o;
  }
  if (!o.preset.empty()) return fail("--preset goes with a lesson, not a kernel file");
  if (!have_kernel) return fail("--kernel NAME is needed with a kernel file");
  if (!have_grid || !have_block) return fail("--grid and --block are needed with a kernel file");
  o.request.file = named;
  return o;
}

}  // namespace warpsim::gui
