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

Expected<void> VectorFileWriter::open(const std::string& path) {
  const bool gzip = path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  file_ = gzopen(path.c_str(), gzip ? "wb9" : "wbT");  // T: plain, uncompressed
  if (file_ == nullptr) return fail(ErrorKind::file, "cannot write " + path + ": " + std::strerror(errno));
  path_ = path;
  return {};
}

Expected<void> VectorFileWriter::write_line(const std::string& line) {
  auto* f = static_cast<gzFile>(file_);
  if (f == nullptr) return fail(ErrorKind::file, "vector file is not open");
  const auto size = static_cast<unsigned>(line.size());
  if (gzwrite(f, line.data(), size) != static_cast<int>(size) || gzputc(f, '\n') != '\n') {
    int code = Z_OK;
    return fail(ErrorKind::file, "cannot write " + path_ + ": " + gzerror(f, &code));
  }
  return {};
}

Expected<void> VectorFileWriter::write(const VectorHeader& header) {
  return write_line(format_vector_header(header));
}

Expected<void> VectorFileWriter::write(const VectorCase& c) { return write_line(format_vector_case(c)); }

Expected<void> VectorFileWriter::close() {
  if (file_ == nullptr) return {};
  const int code = gzclose(static_cast<gzFile>(file_));
  file_ = nullptr;
  if (code != Z_OK) {
    return fail(ErrorKind::file, "cannot finish writing " + path_ + " (zlib error " + std::to_string(code) + ")");
  }
  return {};
}

Expected<void> write_vector_file(const std::string& path, const VectorHeader& header,
                                 const std::vector<VectorCase>& cases) {
  VectorFileWriter writer;
  if (auto r = writer.open(path); !r) return r;
  if (auto r = writer.write(header); !r) return r;
  for (const VectorCase& c : cases) {
    if (auto r = writer.write(c); !r) return r;
  }
  return writer.close();
}

Expected<VectorFile> read_vector_file(const std::string& path) {
  vectors_detail::LineReader reader;
  if (!reader.open(path)) return fail(ErrorKind::file, reader.error());
  // A parse error is on the line just read; a read error on the one after it.
  auto bad = [&](const std::string& why, std::size_t line_number) {
    return fail(path + ":" + std::to_string(line_number) + ": " + why);
  };
  std::string line;
  if (!reader.next(line)) return bad(reader.error().empty() ? "empty file: no header" : reader.error(), 1);
  const auto header = parse_vector_header(line);
  if (!header) return bad(header.error().message, 1);
  VectorFile file;
  file.header = *header;
  while (reader.next(line)) {
    auto c = parse_vector_case(line);
    if (!c) return bad(c.error().message, reader.line_number());
    file.cases.push_back(*c);
  }
  if (!reader.error().empty()) return bad(reader.error(), reader.line_number() + 1);
  if (file.cases.size() != file.header.cases) {
    return fail(path + ": header says " + std::to_string(file.header.cases) + " cases, the file has " +
                std::to_string(file.cases.size()));
  }
  return file;
}

}  // namespace warpsim
