// warpsim: run kernel files in the simulator, check it against GPU test vectors.
#include <cstdio>
#include <string>

#include "commands.hpp"

namespace {

constexpr const char* kUsage = "usage: warpsim <command> [options]   (warpsim help for more)\n";

void print_help() {
  std::printf(
      "warpsim %s: a lane-level simulator of CUDA warps\n"
      "\n"
      "commands:\n"
      "  run FILE.cu --kernel NAME --grid G --block B [--arg SPEC]... [--json] [--trace OUT.json]\n"
      "                        run a kernel file in the simulator (warpsim help run)\n"
      "  walkthrough [LESSON]  step through a lesson's trace in the terminal (default: the\n"
      "                        butterfly reduction)\n"
      "  vectors check FILE... check the simulator against GPU-recorded test vectors\n"
      "  vectors record ...    record test vectors on this machine's GPU (GPU builds only)\n"
      "  help [COMMAND]        this text, or a command's\n"
      "  --version             the version\n",
      WARPSIM_VERSION);
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "warpsim: %s\n%s", message.c_str(), kUsage);
  return warpsim::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  const warpsim::cli::Args args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (args.empty()) return usage_error("no command given");
  const std::string& command = args[0];
  const warpsim::cli::Args rest(args.begin() + 1, args.end());
  if (command == "--help" || command == "-h" || command == "help") {
    const std::string topic = rest.empty() ? "" : rest[0];
    if (topic == "run") {
      warpsim::cli::print_run_help();
    } else if (topic == "vectors") {
      warpsim::cli::print_vectors_help();
    } else if (topic.empty()) {
      print_help();
    } else {
      return usage_error("no help on '" + topic + "'; commands are run and vectors");
    }
    return 0;
  }
  if (command == "--version" || command == "version") {
    std::printf("warpsim %s\n", WARPSIM_VERSION);
    return 0;
  }
  if (command == "run") return warpsim::cli::run_command(rest);
  if (command == "vectors") return warpsim::cli::vectors_command(rest);
  if (command == "walkthrough") return warpsim::cli::walkthrough_command(rest);
  if (command.rfind("-", 0) == 0) return usage_error("unknown option '" + command + "'");
  return usage_error("unknown command '" + command + "'");
}
