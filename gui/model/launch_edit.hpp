// Editing a launch's inputs lane by lane: a buffer argument's elements as texts, and back into an
// --arg spec. The inputs panel edits small buffers this way; the run that follows uses the spec.
//
//   buffer_elements(*parse_arg_spec("f32[4]:iota"), 64) == {"0", "1", "2", "3"}
//   buffer_spec_text(ElementType::f32, {"0", "5", "2", "3"}) == "f32[4]:0,5,2,3"
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/runner.hpp"

namespace warpsim::gui {

// The elements of a buffer spec (zeros, iota, random or a list) with at most `limit` elements; nullopt
// for scalars, files and larger buffers.
std::optional<std::vector<std::string>> buffer_elements(const runner::ArgSpec& spec,
                                                        std::size_t limit);

std::string buffer_spec_text(runner::ElementType type, const std::vector<std::string>& values);

}  // namespace warpsim::gui
