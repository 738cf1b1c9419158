// The view layer's words and parsers: the narrative, compiler messages, predictions, options.
#include <doctest/doctest.h>

#include "gui_kernels.cuh"
#include "launch_traces.hpp"
#include "model/compiler_messages.hpp"
#include "model/gui_options.hpp"
#include "warpsim/step_narration.hpp"
#include "model/predict.hpp"
#include "model/screen_layout.hpp"

using namespace warpsim;
using namespace warpsim::gui;

TEST_CASE("the narrative says who took part and what a lane received, partners included") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 0);
  const auto d = gui_test::describe_all(gui_test::run(1, 32, [&] { gui_butterfly(in.data(), out.data()); }));
  const auto words = narrate_step(d.steps[0], -1);
  REQUIRE(words.size() == 2);
  CHECK(words[0] == "All 32 lanes took part.");
  CHECK(words[1] ==
        "Each lane received the value of its partner lane i ^ 16: lane 0 received 16 from lane 16, "
        "and lane 16 received 0 from lane 0: partners swap values.");
  const auto watched = narrate_step(d.steps[0], 5);
  CHECK(watched.back() == "Watched lane 5: passed in 5, received 21.");
}

TEST_CASE("the narrative of a half-warp shuffle names the lanes gone and the undefined ones") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 0);
  const auto d =
      gui_test::describe_all(gui_test::run(1, 32, [&] { gui_half_shuffle(in.data(), out.data()); }));
  const auto words = narrate_step(d.steps[1], -1);
  // Lanes 16-31 had not exited when lanes 0-15 made the call (named_lane_exited_later).
  CHECK(words[0] ==
        "Lanes 0-15 took part; lanes 16-31 diverged elsewhere (named in the mask, but running "
        "other code).");
  CHECK(words.back().starts_with("The result of lanes 8-15 is undefined"));
}

TEST_CASE("compiler output becomes messages on lines of the kernel file") {
  const std::string output =
      "compile failed:\n"
      "/tmp/x/kernel.cu:12:5: error: 'w' was not declared in this scope\n"
      "   12 |     w += 1;\n"
      "/usr/include/other.h:3:1: error: not ours\n"
      "/tmp/x/kernel.cu:14:1: warning: unused variable\n"
      "kernel.cu:20: note: in expansion\n";
  const auto m = parse_compiler_messages(output, "/tmp/x/kernel.cu");
  REQUIRE(m.size() == 3);
  CHECK(m[0].line == 12);
  CHECK(m[0].column == 5);
  CHECK(m[0].severity == "error");
  CHECK(m[0].text == "'w' was not declared in this scope");
  CHECK(m[1].severity == "warning");
  CHECK(m[2].line == 20);
  CHECK(m[2].column == 0);
}

TEST_CASE("a guess counts when it reads as the same value") {
  CHECK(guess_matches("16", "16"));
  CHECK(guess_matches(" 16 ", "16"));
  CHECK(guess_matches("0x10", "0x00000010"));
  CHECK(guess_matches("16", "0x00000010"));
  CHECK(guess_matches("-0.50", "-0.5"));
  CHECK(guess_matches("101", std::string(29, '0') + "101"));
  CHECK_FALSE(guess_matches("17", "16"));
  CHECK_FALSE(guess_matches("", "16"));
  CHECK_FALSE(guess_matches("sixteen", "16"));
}

TEST_CASE("options: a kernel file with run's flags, or the default lesson") {
  const auto none = parse_gui_options({});
  REQUIRE(none);
  CHECK(none->lesson == "butterfly-reduction");
  CHECK(none->request.file.empty());
  const auto lesson = parse_gui_options({"scan", "--preset", "random"});
  REQUIRE(lesson);
  CHECK(lesson->lesson == "scan");
  CHECK(lesson->preset == "random");

  const auto file = parse_gui_options({"k.cu", "--kernel", "k", "--grid", "2", "--block", "64",
                                       "--arg", "i32[128]:iota", "--step", "3", "--warp", "1:1",
                                       "--format", "hex", "--screenshot", "out.png"});
  REQUIRE(file);
  CHECK(file->request.file == "k.cu");
  CHECK(file->request.grid.x == 2);
  CHECK(file->arg_texts == std::vector<std::string>{"i32[128]:iota"});
  CHECK(file->step == 3u);
  CHECK(file->warp == WarpKey{1, 1});
  CHECK(file->format == ValueFormat::hex);
  CHECK(file->screenshot == "out.png");

  const auto error = [](std::vector<std::string> args) {
    const auto o = parse_gui_options(args);
    return o ? std::string() : o.error().message;
  };
  CHECK(error({"k.cu", "--grid", "1", "--block", "32"}) == "--kernel NAME is needed with a kernel file");
  CHECK(error({"--kernel", "k"}).starts_with("--kernel, --grid, --block and --arg go with a kernel file"));
  CHECK(error({"k.cu", "--kernel", "k", "--grid", "1", "--block", "32", "--arg", "f32[x]:iota"})
            .starts_with("--arg 1 'f32[x]:iota': "));
  CHECK(error({"k.cu", "--kernel", "k", "--grid", "1", "--block", "32", "--preset", "p"}) ==
        "--preset goes with a lesson, not a kernel file");
  CHECK(error({"--step", "0"}) == "--step '0': give a step number, 1 or more");
  CHECK(error({"--frobnicate"}).find("--frobnicate") != std::string::npos);
  CHECK(error({"--step"}).starts_with("--step"));  // a value is missing
  CHECK(error({"k.cu", "--kernel", "k", "--grid", "1", "--block", "32", "--policy", "fast"})
            .starts_with("--policy"));
  CHECK(error({"--size", "10x10"}).starts_with("--size '10x10'"));
  CHECK(error({"--tab", "nope"}).starts_with("--tab 'nope': use lessons, exercise, warps"));
  // `warpsim run`'s flags, all of them, from its own definition; one value per --arg, so a file
  // named after the flags stays the file.
  const auto run_flags = parse_gui_options(
      {"--arg", "i32[64]:iota", "k.cu", "--kernel", "k", "--grid", "2", "--block", "32",
       "--order-seed", "7", "--arch", "sm_80", "-I", "inc", "-D", "N=4", "--check", "races",
       "--timeout", "5"});
  REQUIRE(run_flags);
  CHECK(run_flags->request.file == "k.cu");
  CHECK(run_flags->request.order_seed == 7);
  CHECK(run_flags->request.arch == "sm_80");
  CHECK(run_flags->request.include_dirs == std::vector<std::string>{"inc"});
  CHECK(run_flags->request.defines == std::vector<std::string>{"N=4"});
  CHECK(run_flags->request.timeout_seconds == 5);
  CHECK(run_flags->arg_texts == std::vector<std::string>{"i32[64]:iota"});
  const auto lesson_seed = parse_gui_options({"scan", "--policy", "interleaved", "--seed", "9"});
  REQUIRE(lesson_seed);
  CHECK(lesson_seed->request.policy == warpsim::ConvergencePolicy::interleaved);
  CHECK(lesson_seed->request.seed == 9);
  const auto tab = parse_gui_options({"--tab", "inputs", "--show-help", "--gpu"});
  REQUIRE(tab);
  CHECK(tab->tab == "inputs");
  CHECK(tab->show_help);
  CHECK(tab->live_gpu);
}

TEST_CASE("the screen: the lane view gets what its figure needs, the panels keep some lines") {
  const ScreenLayout s = layout_screen(1280, 720, 17, 300);
  CHECK(s.lanes.y0 == s.timeline.y1);
  CHECK(s.lanes.height() == doctest::Approx(316).epsilon(0.2));
  CHECK(s.source.y1 == 720);
  CHECK(s.side.x1 == 1280);
  const ScreenLayout tall = layout_screen(1280, 720, 17, 2000);
  CHECK(tall.source.height() >= 6 * 17);
}
