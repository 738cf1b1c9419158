#include "line_reader.hpp"

#include <zlib.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace warpsim::vectors_detail {
namespace {

constexpr unsigned kChunkBytes = 1u << 16;

// True when the file starts with the gzip magic bytes 1f 8b.
bool starts_with_gzip_magic(std::FILE* f) {
  std::array<unsigned char, 2> magic{};
  return std::fread(magic.data(), 1, magic.size(), f) == magic.size() && magic[0] == 0x1f &&
         magic[1] == 0x8b;
}

}  // namespace

LineReader::~LineReader() {
  if (file_ != nullptr) gzclose(static_cast<gzFile>(file_));
}

bool LineReader::open(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error_ = "cannot read " + path + ": is a directory";
    return false;
  }
  std::FILE* probe = std::fopen(path.c_str(), "rb");
  if (probe == nullptr) {
    error_ = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  gzip_ = starts_with_gzip_magic(probe);
  std::fclose(probe);
  // zlib reads both: it inflates gzip streams and passes other files through unchanged.
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    error_ = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  gzbuffer(static_cast<gzFile>(file_), kChunkBytes);
  return true;
}

bool LineReader::fill() {
  buffer_.erase(0, pos_);
  pos_ = 0;
  const std::size_t old_size = buffer_.size();
  buffer_.resize(old_size + kChunkBytes);
  const int got = gzread(static_cast<gzFile>(file_), buffer_.data() + old_size, kChunkBytes);
  buffer_.resize(old_size + static_cast<std::size_t>(got > 0 ? got : 0));
  int code = Z_OK;
  const char* message = gzerror(static_cast<gzFile>(file_), &code);
  if (got < 0 || (code != Z_OK && code != Z_STREAM_END)) {
    error_ = std::string(gzip_ ? "corrupt or truncated gzip data: " : "read error: ") + message;
    return false;
  }
  if (got == 0) eof_ = true;
  return got > 0;
}

bool LineReader::next(std::string& line) {
  if (file_ == nullptr || !error_.empty()) return false;
  for (;;) {
    const std::size_t newline = buffer_.find('\n', pos_);
    if (newline != std::string::npos) {
      line.assign(buffer_, pos_, newline - pos_);
      pos_ = newline + 1;
      break;
    }
    if (buffer_.size() - pos_ > kMaxLineBytes) {
      error_ = "line longer than 1 MiB (not a vector file?)";
      return false;
    }
    if (eof_ || !fill()) {
      if (!error_.empty() || pos_ == buffer_.size()) return false;
      line.assign(buffer_, pos_);  // a last line without "\n"
      pos_ = buffer_.size();
      break;
    }
  }
  ++line_number_;
  return true;
}

}  // namespace warpsim::vectors_detail
