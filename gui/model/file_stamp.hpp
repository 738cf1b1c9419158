// A file as it was on disk, to notice when it changes (the GUI reruns a kernel file, and says
// that an exercise's file changed since it was graded).
#pragma once

#include <cstdint>
#include <string>

namespace warpsim::gui {

struct FileStamp {
  bool exists = false;
  std::int64_t mtime_ns = 0;
  std::uintmax_t size = 0;
  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};
FileStamp stamp_of(const std::string& path);

}  // namespace warpsim::gui
