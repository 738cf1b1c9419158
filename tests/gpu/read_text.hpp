// A whole vector file as text, gzip-compressed or not (gzread passes plain files through).
#pragma once

#include <doctest/doctest.h>
#include <zlib.h>

#include <filesystem>
#include <string>

namespace warpsim::gpu::test {

inline std::string read_text(const std::filesystem::path& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  REQUIRE(file != nullptr);
  std::string text;
  char buffer[1 << 16];
  int n = 0;
  while ((n = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  gzclose(file);
  return text;
}

}  // namespace warpsim::gpu::test
