// warpsim: run kernel files in the simulator, step through lessons, check it against GPU vectors.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"

namespace warpsim::cli {

int usage_error(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "warpsim %s: %s\n", command.c_str(), message.c_str());
  return kExitUsage;
}

}  // namespace warpsim::cli

int main(int argc, char** argv) {
  using namespace warpsim::cli;
  CLI::App app{"warpsim " WARPSIM_VERSION ": a lane-level simulator of CUDA warps", "warpsim"};
  app.set_version_flag("--version", "warpsim " WARPSIM_VERSION);
  app.require_subcommand(0, 1);
  app.set_help_all_flag("--help-all", "every command's options");
  add_lessons_option(app);
  std::vector<std::pair<CLI::App*, CommandRun>> commands;
  std::vector<std::string> args(argv, argv + argc);
  std::vector<std::string> program_args = take_program_args(args);
  const auto add = [&](const auto& adder) {
    const std::size_t before = app.get_subcommands({}).size();
    CommandRun run = adder(app);
    commands.emplace_back(app.get_subcommands({}).at(before), std::move(run));
  };
  add(add_run_command);
  add([&](CLI::App& exec) { return add_exec_command(exec, std::move(program_args)); });
  add(add_lessons_command);
  add(add_lesson_commands);
  add(add_walkthrough_command);
  add(add_gui_command);
  add(add_vectors_command);
  add(add_grade_command);
  add(add_exercises_command);
  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "this text, or a command's options");
  help->add_option("command", help_topic, "the command");

  try {
    std::vector<char*> words;
    for (std::string& arg : args) words.push_back(arg.data());
    app.parse(static_cast<int>(words.size()), words.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    const std::string command = chosen.empty() ? std::string() : " " + chosen.front()->get_name();
    std::fprintf(stderr, "warpsim%s: %s\nRun 'warpsim help%s' for the options.\n",
                 command.c_str(), e.what(), command.c_str());
    return kExitUsage;
  }
  if (help->parsed()) {
    if (help_topic.empty()) {
      std::fputs(app.help().c_str(), stdout);
      return 0;
    }
    for (const auto& [sub, run] : commands) {
      if (sub->get_name() == help_topic) {
        std::fputs(sub->help().c_str(), stdout);
        return 0;
      }
    }
    return usage_error("help", "no command '" + help_topic + "'");
  }
  for (const auto& [sub, run] : commands) {
    if (sub->parsed()) return run();
  }
  return open_default();
}
