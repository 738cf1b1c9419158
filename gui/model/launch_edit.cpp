#include "model/launch_edit.hpp"

#include <bit>
#include <cstring>

namespace warpsim::gui {

std::optional<std::vector<std::string>> buffer_elements(const runner::ArgSpec& spec,
                                                        std::size_t limit) {
  if (!spec.is_buffer || spec.count > limit || spec.init == runner::BufferInit::file) {
    return std::nullopt;
  }
  const ValueType type =
      value_type_from_string(runner::to_string(spec.type)).value_or(ValueType::none);
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
        values.push_back(format_value(spec.list.at(i), type));
        break;
      case runner::BufferInit::random:
        values.push_back(format_value(
            runner::random_element(spec.type, spec.seed, spec.low, spec.high, i), type));
        break;
      case runner::BufferInit::file:
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
