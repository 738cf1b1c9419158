#include "diagnostic_recorder.hpp"

namespace warpsim::runtime {

void DiagnosticRecorder::record(const DiagnosticFacts& facts, SourceLine where,
                                std::uint64_t block, std::uint32_t warp, std::int64_t step) {
  const DiagnosticKind kind = kind_of(facts);
  const std::uint64_t key = (std::uint64_t{static_cast<std::uint8_t>(kind)} << 56) ^
                            (std::uint64_t{where.file} << 32) ^ where.line;
  const auto [it, inserted] = index_.try_emplace(key, trace_.diagnostics.size());
  if (!inserted && kind != DiagnosticKind::deadlock) {
    // Again at this line (another warp, block or iteration): count it, and name its lanes too.
    Diagnostic& d = trace_.diagnostics[it->second];
    ++d.occurrences;
    DiagnosticFacts& kept = facts_[it->second];
    if (merge_facts(kept, facts)) {
      // Its own step keeps its own lanes and words (what that step's figure shows).
      if (d.step_message.empty()) {
        d.step_message = d.message;
        d.step_lanes = d.lanes;
      }
      d.lanes = lanes_of(kept);
      d.message = diagnostic_message(kept, trace_.files);
    }
    return;
  }
  Diagnostic d;
  d.kind = kind;
  d.message = diagnostic_message(facts, trace_.files);
  d.lanes = lanes_of(facts);
  d.block = block;
  d.warp = warp;
  d.step = step;
  d.where = where;
  trace_.diagnostics.push_back(std::move(d));
  facts_.push_back(facts);
}

}  // namespace warpsim::runtime
