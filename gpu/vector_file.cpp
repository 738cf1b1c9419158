#include "vector_file.hpp"

#include <zlib.h>

#include <cassert>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>

namespace warpsim::gpu {
namespace {

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char ch : text) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(ch)));
          out += escaped;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

// "0x%08x" or "0x%016x", quoted.
void append_hex(std::string& out, std::uint64_t bits, int width_bits) {
  char text[24];
  if (width_bits == 64) {
    std::snprintf(text, sizeof text, "\"0x%016llx\"", static_cast<unsigned long long>(bits));
  } else {
    std::snprintf(text, sizeof text, "\"0x%08x\"", static_cast<unsigned>(bits & 0xffffffffu));
  }
  out += text;
}

// "key":[e(0),...,e(31)] with null for lanes outside `present`.
template <class Entry>
void append_lane_array(std::string& out, const char* key, LaneMask present, Entry&& entry) {
  out += ",\"";
  out += key;
  out += "\":[";
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lane > 0) out += ',';
    if (has_lane(present, lane)) {
      entry(lane);
    } else {
      out += "null";
    }
  }
  out += ']';
}

GpuError file_error(const std::filesystem::path& path, const std::string& what) {
  return GpuError{GpuErrorKind::file, "cannot write " + path.string() + ": " + what, {}};
}

bool ends_with_gz(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return name.size() >= 3 && name.compare(name.size() - 3, 3, ".gz") == 0;
}

// Writes `text` to `path`, gzip-compressed or plain.
Expected<void> write_bytes(const std::filesystem::path& path, const std::string& text, bool gzip) {
  if (gzip) {
    gzFile file = gzopen(path.c_str(), "wb9");
    if (file == nullptr) return file_error(path, std::strerror(errno));
    constexpr std::size_t kChunk = 1u << 20;
    bool ok = true;
    for (std::size_t at = 0; at < text.size() && ok; at += kChunk) {
      const auto length = static_cast<unsigned>(std::min(kChunk, text.size() - at));
      ok = gzwrite(file, text.data() + at, length) == static_cast<int>(length);
    }
    int errnum = Z_OK;
    const std::string gz_message = ok ? "" : gzerror(file, &errnum);
    const int closed = gzclose(file);
    if (!ok) return file_error(path, "gzwrite failed: " + gz_message);
    if (closed != Z_OK) return file_error(path, "gzclose failed (zlib error " + std::to_string(closed) + ")");
    return {};
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return file_error(path, std::strerror(errno));
  file.write(text.data(), static_cast<std::streamsize>(text.size()));
  file.close();
  if (!file) return file_error(path, "write failed");
  return {};
}

}  // namespace

std::string format_header_line(const VectorHeader& header) {
  std::string out = "{\"device\":";
  append_json_string(out, header.device);
  out += ",\"sm\":" + std::to_string(header.sm);
  out += ",\"driver\":" + std::to_string(header.driver);
  out += ",\"runtime\":" + std::to_string(header.runtime);
  out += ",\"seed\":" + std::to_string(header.seed);
  out += ",\"cases\":" + std::to_string(header.cases);
  out += '}';
  return out;
}

std::string format_case_line(const VectorCase& c) {
  assert((c.mask & c.lanes) == c.lanes);
  assert((c.expect_defined & ~c.lanes) == 0);
  std::string out;
  out.reserve(1024);
  out += "{\"op\":";
  append_json_string(out, to_string(c.op));
  if (c.type != ValueType::none) {
    out += ",\"type\":";
    append_json_string(out, to_string(c.type));
  }
  out += ",\"mask\":";
  append_hex(out, c.mask, 32);
  out += ",\"lanes\":";
  append_hex(out, c.lanes, 32);
  const bool shuffle = is_shuffle(c.op);
  if (shuffle) out += ",\"width\":" + std::to_string(c.width);
  if (c.op != Op::activemask) {
    const int bits = value_bits(c.type);
    append_lane_array(out, "value", c.lanes,
                      [&](int lane) { append_hex(out, c.value[static_cast<std::size_t>(lane)], bits); });
  }
  if (shuffle) {
    append_lane_array(out, "arg", c.lanes,
                      [&](int lane) { out += std::to_string(c.arg[static_cast<std::size_t>(lane)]); });
  }
  const int bits = result_bits(c.op, c.type);
  append_lane_array(out, "expect", c.expect_defined,
                    [&](int lane) { append_hex(out, c.expect[static_cast<std::size_t>(lane)], bits); });
  if (c.op == Op::match_all) {
    append_lane_array(out, "expect_pred", c.lanes,
                      [&](int lane) { out += has_lane(c.expect_pred, lane) ? '1' : '0'; });
  }
  out += '}';
  return out;
}

Expected<void> write_vector_file(const std::filesystem::path& path, const VectorHeader& header,
                                 std::span<const VectorCase> cases) {
  if (path.empty()) return GpuError{GpuErrorKind::invalid_argument, "no output path given for the vector file", {}};
  if (header.cases != cases.size()) {
    return GpuError{GpuErrorKind::invalid_argument,
                    "vector header says " + std::to_string(header.cases) + " cases but " +
                        std::to_string(cases.size()) + " are given",
                    {}};
  }
  std::string text = format_header_line(header);
  text += '\n';
  for (const VectorCase& c : cases) {
    text += format_case_line(c);
    text += '\n';
  }

  std::error_code ec;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return file_error(path, "cannot create its folder: " + ec.message());
  }
  std::filesystem::path partial = path;
  partial += ".partial";
  if (auto written = write_bytes(partial, text, ends_with_gz(path)); !written) {
    std::filesystem::remove(partial, ec);
    return written;
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(partial, ec);
    return file_error(path, "cannot move the finished file into place: " + why);
  }
  return {};
}

}  // namespace warpsim::gpu
