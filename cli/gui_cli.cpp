// `warpsim gui [LESSON | FILE.cu --kernel K ...]`: the GUI is its own executable (warpsim-gui,
// built where Dear ImGui and GLFW are found); this command hands it every argument.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"

namespace warpsim::cli {

namespace fs = std::filesystem;

bool display_available() {
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

// warpsim-gui beside this executable (an installation), else the build tree's.
std::string gui_executable() {
  std::error_code error;
  const fs::path beside = fs::read_symlink("/proc/self/exe", error).parent_path() / "warpsim-gui";
  if (!error && fs::exists(beside, error)) return beside.string();
  if (fs::exists(WARPSIM_GUI_BUILD_PATH, error)) return WARPSIM_GUI_BUILD_PATH;
  return {};
}

int exec_gui(const std::vector<std::string>& args) {
  const std::string gui = gui_executable();
  if (gui.empty()) {
    std::fprintf(stderr,
                 "warpsim gui: warpsim-gui is not built here (it needs libimgui-dev, "
                 "libglfw3-dev and libstb-dev); `warpsim walkthrough` runs in the terminal\n");
    return kExitUsage;
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(gui.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  execv(gui.c_str(), argv.data());
  std::perror(("warpsim gui: " + gui).c_str());
  return kExitUsage;
}

CommandRun add_gui_command(CLI::App& app) {
  auto args = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand(
      "gui", "step through a lesson or kernel file in a window (warpsim gui --help for more)");
  // Everything goes to warpsim-gui as it was given, --help included.
  sub->prefix_command();
  sub->set_help_flag();
  sub->allow_extras();
  return [sub, args] {
    *args = sub->remaining();
    return exec_gui(*args);
  };
}

}  // namespace warpsim::cli
