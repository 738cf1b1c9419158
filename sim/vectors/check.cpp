// `warpsim vectors check`: replays recorded GPU cases through evaluate() and compares bit for bit.

#include "line_reader.hpp"
#include "warpsim/vectors.hpp"

namespace warpsim {
namespace {

constexpr int kMismatchesShown = 20;  // cases described in detail, over all files
constexpr int kErrorsShownPerFile = 20;

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

class FileChecker {
 public:
  FileChecker(const std::string& path, VectorCheck& check) : path_(path), check_(check) {}

  void run() {
    vectors_detail::LineReader reader;
    if (!reader.open(path_)) return error(reader.error());
    std::string line;
    if (!reader.next(line))
      return error_at(reader.line_number() + 1,
                      reader.error().empty() ? "empty file: no header" : reader.error());
    const auto header = parse_vector_header(line);
    if (!header) error_at(1, header.error().message);
    std::uint64_t case_lines = 0;
    while (reader.next(line)) {
      ++case_lines;
      const auto c = parse_vector_case(line);
      if (!c) {
        error_at(reader.line_number(), c.error().message);
        continue;
      }
      check(*c, reader.line_number());
    }
    if (!reader.error().empty())
      error_at(reader.line_number() + 1, reader.error());
    else if (header && header->cases != case_lines)
      error("header says " + std::to_string(header->cases) + " cases, the file has " +
            std::to_string(case_lines));
    if (errors_ > kErrorsShownPerFile) {
      check_.problems.push_back(path_ + ": " + std::to_string(errors_ - kErrorsShownPerFile) +
                                " more errors not shown");
    }
  }

 private:
  void check(const VectorCase& c, std::size_t line_number) {
    const CaseComparison r = compare(c);
    ++check_.cases;
    check_.lane_results += static_cast<std::uint64_t>(r.lanes_compared);
    if (r.lanes_differing == 0) return;
    check_.mismatched_lanes += static_cast<std::uint64_t>(r.lanes_differing);
    if (check_.mismatched_cases++ < kMismatchesShown) {
      check_.mismatches.push_back({path_ + ":" + std::to_string(line_number), c, r.first_lane,
                                   r.first_is_pred, r.simulator, r.gpu, r.lanes_differing,
                                   r.lanes_compared});
    }
  }

  void error(const std::string& message) {
    ++check_.errors;
    if (++errors_ <= kErrorsShownPerFile) check_.problems.push_back(path_ + ": " + message);
  }
  void error_at(std::size_t line_number, const std::string& message) {
    error("line " + std::to_string(line_number) + ": " + message);
  }

  const std::string& path_;
  VectorCheck& check_;
  int errors_ = 0;
};

}  // namespace

VectorCheck check_vector_files(const std::vector<std::string>& paths) {
  VectorCheck check;
  if (paths.empty()) {
    check.problems.push_back("no files given");
    ++check.errors;
  }
  for (const std::string& path : paths) FileChecker(path, check).run();
  return check;
}

}  // namespace warpsim
