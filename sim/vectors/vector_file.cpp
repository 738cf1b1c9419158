// Vector files as a whole: the streaming writer and whole-file read/write.
#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "line_reader.hpp"
#include "warpsim/vectors.hpp"

namespace warpsim {

VectorFileWriter::~VectorFileWriter() {
  if (file_ != nullptr) gzclose(static_cast<gzFile>(file_));
}

bool VectorFileWriter::open(const std::string& path, std::string& error) {
  const bool gzip = path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  file_ = gzopen(path.c_str(), gzip ? "wb9" : "wbT");  // T: plain, uncompressed
  if (file_ == nullptr) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  path_ = path;
  return true;
}

bool VectorFileWriter::write_line(const std::string& line, std::string& error) {
  auto* f = static_cast<gzFile>(file_);
  if (f == nullptr) {
    error = "vector file is not open";
    return false;
  }
  const auto size = static_cast<unsigned>(line.size());
  if (gzwrite(f, line.data(), size) != static_cast<int>(size) || gzputc(f, '\n') != '\n') {
    int code = Z_OK;
    error = "cannot write " + path_ + ": " + gzerror(f, &code);
    return false;
  }
  return true;
}

bool VectorFileWriter::write(const VectorHeader& header, std::string& error) {
  return write_line(format_vector_header(header), error);
}

bool VectorFileWriter::write(const VectorCase& c, std::string& error) {
  return write_line(format_vector_case(c), error);
}

bool VectorFileWriter::close(std::string& error) {
  if (file_ == nullptr) return true;
  const int code = gzclose(static_cast<gzFile>(file_));
  file_ = nullptr;
  if (code != Z_OK) {
    error = "cannot finish writing " + path_ + " (zlib error " + std::to_string(code) + ")";
    return false;
  }
  return true;
}

bool write_vector_file(const std::string& path, const VectorHeader& header,
                       const std::vector<VectorCase>& cases, std::string& error) {
  VectorFileWriter writer;
  if (!writer.open(path, error) || !writer.write(header, error)) return false;
  for (const VectorCase& c : cases)
    if (!writer.write(c, error)) return false;
  return writer.close(error);
}

bool read_vector_file(const std::string& path, VectorHeader& header, std::vector<VectorCase>& cases,
                      std::string& error) {
  vectors_detail::LineReader reader;
  if (!reader.open(path)) {
    error = reader.error();
    return false;
  }
  // A parse error is on the line just read; a read error on the one after it.
  auto fail = [&](const std::string& why, std::size_t line_number) {
    error = path + ":" + std::to_string(line_number) + ": " + why;
    return false;
  };
  std::string line;
  if (!reader.next(line))
    return fail(reader.error().empty() ? "empty file: no header" : reader.error(), 1);
  std::string why;
  const auto parsed_header = parse_vector_header(line, why);
  if (!parsed_header) return fail(why, 1);
  header = *parsed_header;
  cases.clear();
  while (reader.next(line)) {
    auto c = parse_vector_case(line, why);
    if (!c) return fail(why, reader.line_number());
    cases.push_back(*c);
  }
  if (!reader.error().empty()) return fail(reader.error(), reader.line_number() + 1);
  if (cases.size() != header.cases) {
    error = path + ": header says " + std::to_string(header.cases) + " cases, the file has " +
            std::to_string(cases.size());
    return false;
  }
  return true;
}

}  // namespace warpsim
