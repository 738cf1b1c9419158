#include "model/launch_edit.hpp"

#include <bit>
#include <cstring>

namespace warpsim::gui {

std::optional<std::vector<std::string>> buffer_elements(const runner::ArgSpec& spec,
                                                        std::size_t limit) {
  if (!spec.is_buffer || spec.count > limit || spec.init == runner::BufferInit::file ||
      spec.init == runner::BufferInit::undefined) {
    return std::nullopt;
  }
  const auto text = [&](std::uint64_t bits) {
    const runner::ShownElement shown = runner::shown_element(spec.type, bits);
    return format_value(shown.bits, shown.type);
  };
  std::vector<std::string> values;
  values.reserve(spec.count);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    switch (spec.init) {
      case runner::BufferInit::zeros:
        values.emplace_back("0");
        break;
      case runner::BufferInit::iota:
        values.push_back(std::to_string(i));
        break;
      case runner::BufferInit::list:
        values.push_back(text(spec.list.at(i)));
        break;
      case runner::BufferInit::random:
        values.push_back(
            text(runner::random_element(spec.type, spec.seed, spec.low, spec.high, i)));
        break;
      case runner::BufferInit::file:
      case runner::BufferInit::undefined:
        return std::nullopt;
    }
  }
  return values;
}

std::string buffer_spec_text(runner::ElementType type, const std::vector<std::string>& values) {
  std::string text = std::string(runner::to_string(type)) + "[" + std::to_string(values.size()) + "]:";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i > 0 ? "," : "") + values[i];
  return text;
}

}  // namespace warpsim::gui
