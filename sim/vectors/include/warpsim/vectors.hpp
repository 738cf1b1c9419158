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

#include "warpsim/expected.hpp"
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

// Parses one line; the error says why in one sentence (no line number).
Expected<VectorHeader> parse_vector_header(std::string_view line);
Expected<VectorCase> parse_vector_case(std::string_view line);

// The step a case describes: callers = lanes, exited = ~lanes, every caller passing `mask`.
StepInputs to_step_inputs(const VectorCase& c);

// Writes a vector file line by line; a path ending in ".gz" is gzip-compressed.
class VectorFileWriter {
 public:
  VectorFileWriter() = default;
  VectorFileWriter(const VectorFileWriter&) = delete;
  VectorFileWriter& operator=(const VectorFileWriter&) = delete;
  ~VectorFileWriter();

  Expected<void> open(const std::string& path);
  Expected<void> write(const VectorHeader& header);
  Expected<void> write(const VectorCase& c);
  Expected<void> close();  // flushes; reports a failed write or compression

 private:
  Expected<void> write_line(const std::string& line);
  void* file_ = nullptr;  // gzFile
  std::string path_;
};

// Whole files at once. Reading detects gzip by its magic bytes, whatever the name; a header whose
// `cases` differs from the case lines read is an error.
struct VectorFile {
  VectorHeader header;
  std::vector<VectorCase> cases;
};
Expected<void> write_vector_file(const std::string& path, const VectorHeader& header,
                                 const std::vector<VectorCase>& cases);
Expected<VectorFile> read_vector_file(const std::string& path);

// One case whose GPU result the simulator does not reproduce.
struct VectorMismatch {
  std::string where;  // "file:line"
  VectorCase c;
  int lane = -1;              // the first differing lane
  bool is_pred = false;       // the difference is match_all's *pred, not the value
  std::uint64_t simulator = 0, gpu = 0;
  int lanes_differing = 0, lanes_compared = 0;
};

// `warpsim vectors check FILE...`: every case of every file replayed, every non-null expect /
// expect_pred entry compared bit for bit.
struct VectorCheck {
  std::uint64_t cases = 0, lane_results = 0, mismatched_lanes = 0, mismatched_cases = 0;
  std::vector<VectorMismatch> mismatches;  // the first 20 cases in detail
  std::vector<std::string> problems;       // unreadable files, malformed lines (20 per file)
  std::uint64_t errors = 0;                // input errors, all of them
  // 0 when everything matched, 1 on mismatches, 2 when some input could not be read or parsed.
  int exit_status() const { return errors > 0 ? 2 : mismatched_lanes > 0 ? 1 : 0; }
};
VectorCheck check_vector_files(const std::vector<std::string>& paths);

}  // namespace warpsim
