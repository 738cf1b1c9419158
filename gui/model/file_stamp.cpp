#include "model/file_stamp.hpp"

#include <sys/stat.h>

namespace warpsim::gui {

FileStamp stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {true, static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
          static_cast<std::uintmax_t>(st.st_size)};
}

}  // namespace warpsim::gui
