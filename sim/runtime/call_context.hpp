// Where a warp-level call sits in its kernel's source (in a branch, in a loop, after a return),
// and where its mask comes from. A lane runs natively, so when it exits the simulator does not
// know where; whether a lane that exited without making a call had gone past it (undefined) or
// had returned before reaching it (allowed) is read from the call's place in the source text
// (sync::named_lanes_exited_later). Likewise a mask is only a value: whether it came from
// __activemask() is read from the call's argument (activemask_as_mask).
// A rough scan, as a reader would do it, of the text as written (comments, literals and
// preprocessor lines set aside); when it cannot make sense of the text, `known` stays false.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "warpsim/sync.hpp"

namespace warpsim::runtime {

// Where the member mask of a call comes from, as far as the call's source text shows.
enum class MaskOrigin : std::uint8_t {
  unknown,     // not readable, or not followed (a parameter of the function, an expression)
  activemask,  // __activemask() in the argument, or a variable the function set from it
  elsewhere,   // a literal, a constant, a variable set from something else, a group's own mask
};

struct CallContext {
  sync::CallShape shape;
  MaskOrigin mask = MaskOrigin::unknown;
};

// The call of `callee` (e.g. "__shfl_xor_sync") on line `line` of `source`. When `callee` is not
// on the line (a cooperative-groups member such as tile.shfl, a helper, a macro), the line's
// first call, whose mask is the group's or the helper's business: MaskOrigin::elsewhere.
CallContext call_context(std::string_view source, std::uint32_t line, std::string_view callee);

// call_context over files read once each (kernel files are small, and only calls that look
// wrong are asked about). A relative path, as a build may have spelled it, is looked for from
// the working directory, then from the executable's folder and each folder above it.
class CallContexts {
 public:
  CallContext of(const std::string& path, std::uint32_t line, std::string_view callee);

 private:
  const std::string& text_of(const std::string& path);
  std::unordered_map<std::string, std::string> texts_;  // path -> contents ("" if unreadable)
  std::unordered_map<std::string, CallContext> contexts_;  // "path:line:callee" -> context
};

}  // namespace warpsim::runtime
