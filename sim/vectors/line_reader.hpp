// Internal to sim/vectors: reads a text file line by line, gunzipping it when it starts with the
// gzip magic bytes (1f 8b). Never hangs on endless input: a line over kMaxLineBytes is an error.
#pragma once

#include <cstddef>
#include <string>

namespace warpsim::vectors_detail {

class LineReader {
 public:
  static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

  LineReader() = default;
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader();

  // False, with error() set, when the file cannot be opened.
  bool open(const std::string& path);
  // The next line without its "\n" (a "\r" before it stays: JSON reads it as white space).
  // False at the end of the file or on a read error; error() is empty at a clean end.
  bool next(std::string& line);

  const std::string& error() const { return error_; }
  std::size_t line_number() const { return line_number_; }  // of the line last returned
  bool is_gzip() const { return gzip_; }

 private:
  bool fill();

  void* file_ = nullptr;  // gzFile
  std::string buffer_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  bool gzip_ = false;
  std::size_t line_number_ = 0;
  std::string error_;
};

}  // namespace warpsim::vectors_detail
