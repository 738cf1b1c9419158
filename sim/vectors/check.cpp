// `warpsim vectors check`: replays recorded GPU cases through evaluate() and compares bit for bit.
#include <cinttypes>
#include <cstdio>
#include <ostream>

#include "line_reader.hpp"
#include "warpsim/vectors.hpp"

namespace warpsim {
namespace {

constexpr int kMismatchesShown = 20;  // cases described in detail, over all files
constexpr int kErrorsShownPerFile = 20;

struct Totals {
  std::uint64_t cases = 0;
  std::uint64_t lane_results = 0;
  std::uint64_t mismatched_lanes = 0;
  std::uint64_t mismatched_cases = 0;
  std::uint64_t errors = 0;
};

// How one case compared, and its first differing lane.
struct CaseComparison {
  int lanes_compared = 0;
  int lanes_differing = 0;
  int first_lane = -1;
  bool first_is_pred = false;  // the first difference is match_all's *pred, not the value
  std::uint64_t simulator = 0;
  std::uint64_t gpu = 0;
};

CaseComparison compare(const VectorCase& c) {
  StepOutputs out;
  evaluate(c.op, c.type, to_step_inputs(c), out);
  CaseComparison r;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(c.lanes, lane) || (!c.expect[lane] && !c.expect_pred[lane])) continue;
    ++r.lanes_compared;
    const bool value_differs = c.expect[lane] && *c.expect[lane] != out.value[lane];
    const bool sim_pred = has_lane(out.pred, lane);
    const bool pred_differs = c.expect_pred[lane] && *c.expect_pred[lane] != sim_pred;
    if (!value_differs && !pred_differs) continue;
    if (r.lanes_differing++ == 0) {
      r.first_lane = lane;
      r.first_is_pred = !value_differs;
      r.simulator = value_differs ? out.value[lane] : sim_pred;
      r.gpu = value_differs ? *c.expect[lane] : *c.expect_pred[lane];
    }
  }
  return r;
}

std::string hex(std::uint64_t bits, bool wide) {
  char text[24];
  if (wide)
    std::snprintf(text, sizeof text, "0x%016" PRIx64, bits);
  else
    std::snprintf(text, sizeof text, "0x%08" PRIx32, static_cast<std::uint32_t>(bits));
  return text;
}

void report_mismatch(std::ostream& out, const std::string& where, const VectorCase& c,
                     const CaseComparison& r) {
  out << where << ": mismatch: " << to_string(c.op) << " type "
      << (vector_case_has_type(c.op) ? to_string(c.type) : "-") << " mask " << hex(c.mask, false)
      << " lanes " << hex(c.lanes, false);
  if (is_shuffle(c.op)) out << " width " << c.width;
  out << ": lane " << r.first_lane;
  if (is_shuffle(c.op)) out << " (arg " << c.arg[r.first_lane] << ")";
  if (r.first_is_pred) {
    out << " pred: simulator " << r.simulator << ", GPU " << r.gpu;
  } else {
    const bool wide = is_shuffle(c.op) && is_64bit(c.type);
    out << ": simulator " << hex(r.simulator, wide) << ", GPU " << hex(r.gpu, wide);
  }
  out << " (" << r.lanes_differing << " of " << r.lanes_compared << " lanes differ)\n";
}

class FileChecker {
 public:
  FileChecker(const std::string& path, Totals& totals, std::ostream& out, std::ostream& err)
      : path_(path), totals_(totals), out_(out), err_(err) {}

  void run() {
    vectors_detail::LineReader reader;
    if (!reader.open(path_)) return error(reader.error());
    std::string line;
    if (!reader.next(line))
      return error_at(reader.line_number() + 1,
                      reader.error().empty() ? "empty file: no header" : reader.error());
    std::string why;
    const auto header = parse_vector_header(line, why);
    if (!header) error_at(1, why);
    std::uint64_t case_lines = 0;
    while (reader.next(line)) {
      ++case_lines;
      const auto c = parse_vector_case(line, why);
      if (!c) {
        error_at(reader.line_number(), why);
        continue;
      }
      check(*c, reader.line_number());
    }
    if (!reader.error().empty())
      error_at(reader.line_number() + 1, reader.error());
    else if (header && header->cases != case_lines)
      error("header says " + std::to_string(header->cases) + " cases, the file has " +
            std::to_string(case_lines));
    if (errors_ > kErrorsShownPerFile)
      err_ << path_ << ": " << errors_ - kErrorsShownPerFile << " more errors not shown\n";
  }

 private:
  void check(const VectorCase& c, std::size_t line_number) {
    const CaseComparison r = compare(c);
    ++totals_.cases;
    totals_.lane_results += static_cast<std::uint64_t>(r.lanes_compared);
    if (r.lanes_differing == 0) return;
    totals_.mismatched_lanes += static_cast<std::uint64_t>(r.lanes_differing);
    if (totals_.mismatched_cases++ < kMismatchesShown)
      report_mismatch(out_, path_ + ":" + std::to_string(line_number), c, r);
  }

  void error(const std::string& message) {
    ++totals_.errors;
    if (++errors_ <= kErrorsShownPerFile) err_ << path_ << ": " << message << "\n";
  }
  void error_at(std::size_t line_number, const std::string& message) {
    error("line " + std::to_string(line_number) + ": " + message);
  }

  const std::string& path_;
  Totals& totals_;
  std::ostream& out_;
  std::ostream& err_;
  int errors_ = 0;
};

}  // namespace

int check_vector_files(const std::vector<std::string>& paths, std::ostream& out,
                       std::ostream& err) {
  Totals totals;
  if (paths.empty()) {
    err << "vectors: no files given\n";
    ++totals.errors;
  }
  for (const std::string& path : paths) FileChecker(path, totals, out, err).run();
  if (totals.mismatched_cases > static_cast<std::uint64_t>(kMismatchesShown))
    out << "... " << totals.mismatched_cases - kMismatchesShown
        << " more mismatching cases not shown\n";
  if (totals.errors > 0) err << "vectors: " << totals.errors << " input errors\n";
  out << "vectors: " << totals.cases << " cases, " << totals.lane_results << " lane results, "
      << totals.mismatched_lanes << " mismatched\n";
  if (totals.errors > 0) return 2;
  return totals.mismatched_lanes > 0 ? 1 : 0;
}

}  // namespace warpsim
