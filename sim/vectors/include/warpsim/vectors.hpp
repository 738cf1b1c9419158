// GPU test vectors (../shared/spec/vectors.md): what a real GPU returned for single warp-level
// calls, as JSON Lines (plain or gzip). The recorder in gpu/ writes them through this API; the
// checker (`warpsim vectors check`) replays each case through evaluate() and compares bit for bit.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/semantics.hpp"

namespace warpsim {

// The first line of a vector file. Every field is required.
struct VectorHeader {
  std::string device;       // e.g. "NVIDIA H100 80GB HBM3"
  int sm = 0;               // compute capability times ten, e.g. 90
  int driver = 0;           // cudaDriverGetVersion, e.g. 13000
  int runtime = 0;          // cudaRuntimeGetVersion
  std::uint64_t seed = 0;   // the generator's seed
  std::uint64_t cases = 0;  // number of case lines that follow
  friend bool operator==(const VectorHeader&, const VectorHeader&) = default;
};

// One recorded call by one warp. Lanes outside `lanes` exited before it: their entries are written
// as null and read back as zero / nullopt.
struct VectorCase {
  Op op = Op::shfl_idx;
  ValueType type =
      ValueType::none;      // none where the format has no "type" (see vector_case_has_type)
  LaneMask mask = 0;        // member mask every calling lane passed
  LaneMask lanes = 0;       // calling lanes
  std::int32_t width = 32;  // shuffles only
  std::array<std::uint64_t, kWarpSize> value{};  // raw bits; the predicate for votes
  std::array<std::int32_t, kWarpSize> arg{};     // shuffles only: srcLane / delta / laneMask
  // What each lane got on the GPU; nullopt for exited lanes and results CUDA leaves undefined.
  std::array<std::optional<std::uint64_t>, kWarpSize> expect{};
  std::array<std::optional<bool>, kWarpSize> expect_pred{};  // match_all only: *pred
  friend bool operator==(const VectorCase&, const VectorCase&) = default;
};

// The value types the format records, in the order vectors.md lists them (no halves).
inline constexpr std::array<ValueType, 6> kVectorValueTypes{ValueType::i32, ValueType::u32,
                                                            ValueType::f32, ValueType::i64,
                                                            ValueType::u64, ValueType::f64};

bool is_vector_op(Op op);          // ops a vector file may hold (the table's `vectors` coverage)
bool vector_case_has_type(Op op);  // ops with typed overloads (shuffles, matches, add/min/max)

// One line of JSON in the exact layout of vectors.md (key order, "0x%08x" / "0x%016x"), no newline.
std::string format_vector_header(const VectorHeader& header);
std::string format_vector_case(const VectorCase& c);

// Parses one line. On failure returns nullopt and says why in `error` (one sentence, no line
// number).
std::optional<VectorHeader> parse_vector_header(std::string_view line, std::string& error);
std::optional<VectorCase> parse_vector_case(std::string_view line, std::string& error);

// The step a case describes: callers = lanes, exited = ~lanes, every caller passing `mask`.
StepInputs to_step_inputs(const VectorCase& c);

// Writes a vector file line by line; a path ending in ".gz" is gzip-compressed.
class VectorFileWriter {
 public:
  VectorFileWriter() = default;
  VectorFileWriter(const VectorFileWriter&) = delete;
  VectorFileWriter& operator=(const VectorFileWriter&) = delete;
  ~VectorFileWriter();

  bool open(const std::string& path, std::string& error);
  bool write(const VectorHeader& header, std::string& error);
  bool write(const VectorCase& c, std::string& error);
  bool close(std::string& error);  // flushes; reports a failed write or compression

 private:
  bool write_line(const std::string& line, std::string& error);
  void* file_ = nullptr;  // gzFile
  std::string path_;
};

// Whole files at once. Reading detects gzip by its magic bytes, whatever the name; a header whose
// `cases` differs from the case lines read is an error.
bool write_vector_file(const std::string& path, const VectorHeader& header,
                       const std::vector<VectorCase>& cases, std::string& error);
bool read_vector_file(const std::string& path, VectorHeader& header, std::vector<VectorCase>& cases,
                      std::string& error);

// `warpsim vectors check FILE...`: replays every case of every file and compares each non-null
// expect / expect_pred entry bit for bit. Mismatches (the first 20 cases in detail) go to `out`;
// unreadable files and malformed lines (the first 20 per file) go to `err`. The last line on `out`
// is always "vectors: N cases, L lane results, M mismatched" (M counts lanes).
// Returns 0 when everything matched, 1 on mismatches, 2 when some input could not be read or
// parsed.
int check_vector_files(const std::vector<std::string>& paths, std::ostream& out, std::ostream& err);

}  // namespace warpsim
