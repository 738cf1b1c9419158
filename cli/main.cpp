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

namespace {

std::string number_text(double value) {
  std::ostringstream out;
  out << value;  // 0.001, 86400, 1
  return out.str();
}

// `allowed` says what is ("1 or more"); `fits` whether a value is.
CLI::Validator number_check(std::string allowed, std::function<bool(double)> fits) {
  return CLI::Validator(
      [allowed, fits](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size()) return "'" + text + "' is not a number";
        if (!fits(value)) return text + " is not allowed: it must be " + allowed;
        return {};
      },
      allowed);
}

}  // namespace

CLI::Validator number_between(double low, double high) {
  return number_check("from " + number_text(low) + " to " + number_text(high),
                      [low, high](double v) { return v >= low && v <= high; });
}

CLI::Validator number_at_least(double low) {
  return number_check(number_text(low) + " or more", [low](double v) { return v >= low; });
}

CLI::Validator number_above(double low) {
  return number_check("more than " + number_text(low), [low](double v) { return v > low; });
}

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
