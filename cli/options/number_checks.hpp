// Checks of a number option whose messages a person reads ("--max-steps: 0 is not allowed: it
// must be 1 or more"; CLI11's own ranges print the largest double in full, 300 digits). Used by
// the warpsim command and by warpsim-gui, which take the same flags.
#pragma once

#include <CLI/CLI.hpp>

namespace warpsim::cli {

CLI::Validator number_between(double low, double high);
CLI::Validator number_at_least(double low);
CLI::Validator number_above(double low);

}  // namespace warpsim::cli
