// `--lessons DIR`: an instructor's own lessons and exercises, for every command that lists,
// opens or grades them, and for the GUI that `warpsim gui` starts.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"

namespace warpsim::cli {

void add_lessons_option(CLI::App& app) {
  app.add_option_function<std::vector<std::string>>(
         "--lessons",
         [](const std::vector<std::string>& dirs) {
           // Carried in $WARPSIM_LESSONS (course::lesson_folders reads it): the GUI, started with
           // exec, gets them too.
           std::string list;
           if (const char* env = std::getenv("WARPSIM_LESSONS")) list = env;
           for (const std::string& dir : dirs) {
             std::error_code error;
             const std::string absolute = std::filesystem::absolute(dir, error).string();
             list += (list.empty() ? "" : ":") + absolute;
           }
           setenv("WARPSIM_LESSONS", list.c_str(), 1);
         },
         "a folder of your own lessons and exercises (laid out as lessons/ is: README.md, "
         "\"Your own material\"); repeatable; $WARPSIM_LESSONS (colon-separated) adds them too")
      ->type_name("DIR")
      ->trigger_on_parse();
}

}  // namespace warpsim::cli
