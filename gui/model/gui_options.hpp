// warpsim-gui's command line: what to open (a kernel file with `warpsim run`'s flags, parsed by
// the runner's own parsers), where to start, and the headless modes that tests and scripts use.
//
//   warpsim-gui [LESSON [--preset P] | FILE.cu --kernel K --grid G --block B --arg SPEC...
//               | --exercise ID [FILE.cu] [--grade]]
//               [--step N] [--warp B:W] [--screenshot OUT.png] [--bench-frames N] ...
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/expected.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/step_view.hpp"
#include "warpsim/trace_index.hpp"

namespace warpsim::gui {

struct GuiOptions {
  // A lesson (an id such as "butterfly-reduction" or "4", or a lesson folder) and its preset ...
  std::string lesson;  // nothing named: the default lesson
  std::string preset;  // empty: "default"
  // ... or a kernel file, with `warpsim run`'s flags.
  runner::KernelFileRequest request;   // request.file empty: a lesson
  std::vector<std::string> arg_texts;  // the --arg specs as typed (the inputs panel edits them)
  std::string grid_text, block_text;
  std::string gpu_record;  // --gpu-record FILE: a recorded GPU run (GpuRun JSON, .gz too)
  bool live_gpu = false;   // --gpu: run it on this machine's GPU too, and compare
  // ... or an exercise (an id such as "warp-sum", or an exercise folder) and the file graded.
  std::string exercise;
  std::string exercise_file;  // empty: the exercise's starter
  bool grade = false;         // --grade: grade the file at once
  // --lessons DIR (repeatable): an instructor's lessons and exercises, after $WARPSIM_LESSONS's
  // (course::lesson_folders).
  std::vector<std::string> lesson_dirs;

  std::optional<std::size_t> step;  // --step N: the N-th step (1-based) of the warp shown
  std::optional<WarpKey> warp;      // --warp B:W (default: the first warp with steps)
  bool all_warps = false;           // --all-warps: step through every warp in trace order
  ValueFormat format = ValueFormat::natural;
  int watch = -1;                   // --watch LANE
  bool predict = false;
  float font_size = 0;              // --font-size PX (0: 15, times the display's scale)
  int history = 4;                  // --history N: earlier steps drawn above the current one
  std::string tab;                  // --tab NAME: the side panel's tab shown first
  bool show_help = false;           // --show-help: the shortcuts overlay open

  std::string screenshot;       // --screenshot OUT.png: render the state, write it, exit
  std::string probes_out;       // --probes OUT.json: pixels the screenshot promises (tests)
  std::string export_png;       // --export-png OUT.png: the current step's figure, then exit
  std::string export_svg_dir;   // --export-svg DIR: every step of the warp as SVG, then exit
  std::size_t bench_frames = 0; // --bench-frames N: frame-time statistics, then exit
  int width = 1280, height = 720;  // --size WxH
  bool help = false;
};

// The options, or one line saying what is wrong (`warpsim-gui: ` is not included).
Expected<GuiOptions> parse_gui_options(const std::vector<std::string>& args);

std::string gui_usage();

}  // namespace warpsim::gui
