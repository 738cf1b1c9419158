// `warpsim vectors check`'s report: each mismatching case (the first 20) on `out`, unreadable
// files and malformed lines on `err`, and always last on `out` the summary
// "vectors: N cases, L lane results, M mismatched" (M counts lanes).
#pragma once

#include <iosfwd>

#include "warpsim/vectors.hpp"

namespace warpsim::cli {

void write_vector_check(std::ostream& out, std::ostream& err, const VectorCheck& check);

}  // namespace warpsim::cli
