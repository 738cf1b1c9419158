// The subcommands of the `warpsim` command. Each adds itself to the command line (CLI11) and
// returns what runs it once the line is parsed; that returns the process's exit status.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "options/number_checks.hpp"

namespace warpsim::cli {

inline constexpr int kExitUsage = 2;
// `--gpu` or `vectors record` where no CUDA device (or no GPU support) is available.
inline constexpr int kExitNoGpu = 3;

using CommandRun = std::function<int()>;

CommandRun add_run_command(CLI::App& app);
// `exec`'s program arguments, everything after its first `--`, are taken out of `args` (argv)
// before CLI11 parses it: CLI11 would give them to the files positional, or end a list option
// with that `--` and read the program's own options as exec's.
std::vector<std::string> take_program_args(std::vector<std::string>& args);
CommandRun add_exec_command(CLI::App& app, std::vector<std::string> program_args);
CommandRun add_vectors_command(CLI::App& app);
CommandRun add_walkthrough_command(CLI::App& app);
CommandRun add_lesson_commands(CLI::App& app);
CommandRun add_lessons_command(CLI::App& app);
CommandRun add_gui_command(CLI::App& app);
CommandRun add_grade_command(CLI::App& app);
CommandRun add_exercises_command(CLI::App& app);

// `--lessons DIR` (repeatable) on `app`: an instructor's lessons and exercises, added to
// $WARPSIM_LESSONS for this process and the GUI it starts (course::lesson_folders reads it).
void add_lessons_option(CLI::App& app);

// `warpsim exercises --verify DIR` (exercise_verify_cli.cpp): 0 every check passed, 1 one did
// not (or an exercise did not load), 2 no exercise there, 3 nothing failed but cases did not run.
int exercises_verify(const std::string& dir, std::optional<std::uint64_t> seed, bool as_json);

// The GUI (gui_cli.cpp): whether a display exists, and handing arguments to warpsim-gui (returns
// only when it cannot be started).
bool display_available();
std::string gui_executable();  // empty when the GUI is not built
int exec_gui(const std::vector<std::string>& args);

// `warpsim` with no command: the main job (the GUI where a display exists, else the terminal
// walkthrough of the default lesson).
int open_default();

// "warpsim run: MESSAGE" on stderr; returns kExitUsage.
int usage_error(const std::string& command, const std::string& message);

}  // namespace warpsim::cli
