// `warpsim vectors check`'s report of a VectorCheck.
#include "vectors_report.hpp"

#include <cstdio>
#include <ostream>

#include "hex_text.hpp"

namespace warpsim::cli {

void write_vector_check(std::ostream& out, std::ostream& err, const VectorCheck& result) {
  for (const VectorMismatch& m : result.mismatches) {
    const VectorCase& c = m.c;
    out << m.where << ": mismatch: " << to_string(c.op) << " type "
              << (vector_case_has_type(c.op) ? to_string(c.type) : "-") << " mask "
              << hex(c.mask, false) << " lanes " << hex(c.lanes, false);
    if (is_shuffle(c.op)) out << " width " << c.width;
    out << ": lane " << m.lane;
    if (is_shuffle(c.op)) out << " (arg " << c.arg[static_cast<std::size_t>(m.lane)] << ")";
    if (m.is_pred) {
      out << " pred: simulator " << m.simulator << ", GPU " << m.gpu;
    } else {
      const bool wide = is_shuffle(c.op) && is_64bit(c.type);
      out << ": simulator " << hex(m.simulator, wide) << ", GPU " << hex(m.gpu, wide);
    }
    out << " (" << m.lanes_differing << " of " << m.lanes_compared << " lanes differ)\n";
  }
  if (result.mismatched_cases > result.mismatches.size()) {
    out << "... " << result.mismatched_cases - result.mismatches.size()
              << " more mismatching cases not shown\n";
  }
  for (const std::string& problem : result.problems) err << problem << "\n";
  if (result.errors > 0) err << "vectors: " << result.errors << " input errors\n";
  out << "vectors: " << result.cases << " cases, " << result.lane_results << " lane results, "
            << result.mismatched_lanes << " mismatched\n";
}


}  // namespace warpsim::cli
