// Records misuse into a trace: the first time a kind of misuse is seen at a line it becomes a
// Diagnostic; seen there again (another warp, block or iteration), it is counted and its lane sets
// widen (merge_facts). One recorder per launch: the block runner records through it as blocks
// run, and a launch whose blocks ran on several threads replays each block's findings through it
// in block order (block_pool.cpp), so both give the same diagnostics.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "warpsim/diagnostic_text.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runtime {

class DiagnosticRecorder {
 public:
  explicit DiagnosticRecorder(Trace& trace) : trace_(trace) {}
  void record(const DiagnosticFacts& facts, SourceLine where, std::uint64_t block,
              std::uint32_t warp, std::int64_t step);

 private:
  Trace& trace_;
  std::unordered_map<std::uint64_t, std::size_t> index_;  // (kind, file, line) -> diagnostic
  std::vector<DiagnosticFacts> facts_;                    // what each of trace_.diagnostics says
};

// One finding of one block, kept for replay (file ids are those of the trace it was found in).
struct FoundDiagnostic {
  DiagnosticFacts facts;
  SourceLine where{};
  std::uint64_t block = 0;
  std::uint32_t warp = 0;
  std::int64_t step = -1;
};

// Every SourceLine the facts hold (the call site, the other site, where __activemask() ran),
// passed to `f` to read or rewrite (replay into another trace renumbers files).
template <class F>
void for_each_source_line(DiagnosticFacts& facts, F f) {
  std::visit(
      [&](auto& x) {
        if constexpr (requires { x.where; }) f(x.where);
        if constexpr (requires { x.elsewhere; }) f(x.elsewhere);
        if constexpr (requires { x.activemask_at; }) f(x.activemask_at);
      },
      facts);
}

}  // namespace warpsim::runtime
