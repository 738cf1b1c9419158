// The side panel's tabs and their --tab names, in the order the panel shows them. A new tab: its
// value and name here, its label and view in the table of gui/app/views/side_panel.cpp, and the
// view's own file in gui/app/views (three places).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpsim::gui {

enum class Tab : std::uint8_t { lessons, exercise, warps, diagnostics, inputs, predict, gpu };

struct TabName {
  Tab tab;
  std::string_view name;  // as --tab takes it
};
inline constexpr TabName kTabNames[] = {
    {Tab::lessons, "lessons"}, {Tab::exercise, "exercise"}, {Tab::warps, "warps"},
    {Tab::diagnostics, "diagnostics"}, {Tab::inputs, "inputs"}, {Tab::predict, "predict"},
    {Tab::gpu, "gpu"}};

inline std::optional<Tab> tab_named(std::string_view name) {
  for (const TabName& t : kTabNames)
    if (t.name == name) return t.tab;
  return std::nullopt;
}

// "lessons, exercise, ..., predict or gpu"
inline std::string tab_names(std::string_view last = " or ") {
  std::string text;
  const std::size_t n = std::size(kTabNames);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) text += i + 1 == n ? std::string(last) : std::string(", ");
    text += kTabNames[i].name;
  }
  return text;
}

}  // namespace warpsim::gui
