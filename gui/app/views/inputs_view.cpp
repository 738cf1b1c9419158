// The launch as text: file, kernel, grid, block and one --arg per parameter; small buffers
// (up to 64 elements) also lane by lane. Editing a value runs the kernel again at once (it is
// compiled once and cached: a one-warp rerun takes milliseconds, on the worker thread).
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "model/launch_edit.hpp"
#include "views/views.hpp"

namespace warpsim::gui {
namespace {

// An InputText over a copy of `text`: the edit comes back as a command, not in place.
bool edit_text(const char* label, const std::string& text, std::string& edited, float width = -1) {
  std::array<char, 1024> buffer{};
  std::strncpy(buffer.data(), text.c_str(), buffer.size() - 1);
  ImGui::SetNextItemWidth(width);
  if (!ImGui::InputText(label, buffer.data(), buffer.size())) return false;
  edited = buffer.data();
  return true;
}

}  // namespace

void draw_inputs_view(const Model& m, const ViewState& v, const Ui&, Commands& out) {
  const LaunchTexts& t = v.launch;
  std::string edited;
  const float label_w = ImGui::GetFontSize() * 4;
  const auto field = [&](const char* name, const std::string& text, SetLaunchText::Field f,
                         std::size_t index = 0) {
    ImGui::TextUnformatted(name);
    ImGui::SameLine(label_w);
    ImGui::PushID(name);
    ImGui::PushID(static_cast<int>(index));
    if (edit_text("##edit", text, edited)) out.push_back(SetLaunchText{f, index, edited});
    const bool done = ImGui::IsItemDeactivatedAfterEdit();
    ImGui::PopID();
    ImGui::PopID();
    return done;
  };
  bool rerun = false;
  const course::Lesson* lesson = m.run ? m.run->lesson : nullptr;
  if (lesson != nullptr) {
    // A lesson: its kernel is fixed; its presets are other inputs, and any input can be edited.
    ImGui::TextWrapped("%s: kernel %s", lesson->id.c_str(), t.kernel.c_str());
    ImGui::TextUnformatted("preset");
    ImGui::SameLine(label_w);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##preset", v.preset.c_str())) {
      for (const course::Preset& p : lesson->presets) {
        if (ImGui::Selectable(p.name.c_str(), p.name == v.preset)) {
          out.push_back(OpenLesson{lesson->id, p.name});
        }
        if (ImGui::IsItemHovered() && !p.summary.empty()) ImGui::SetTooltip("%s", p.summary.c_str());
      }
      ImGui::EndCombo();
    }
  } else {
    rerun |= field("file", t.file, SetLaunchText::file);
    rerun |= field("kernel", t.kernel, SetLaunchText::kernel);
  }
  if (lesson == nullptr && m.run && m.run->kernels.size() > 1) {
    ImGui::SameLine();
    if (ImGui::BeginCombo("##kernels", "", ImGuiComboFlags_NoPreview)) {
      for (const runner::KernelInfo& k : m.run->kernels) {
        if (ImGui::Selectable(k.name.c_str(), k.name == t.kernel)) {
          out.push_back(SetLaunchText{SetLaunchText::kernel, 0, k.name});
        }
      }
      ImGui::EndCombo();
    }
  }
  rerun |= field("grid", t.grid, SetLaunchText::grid);
  rerun |= field("block", t.block, SetLaunchText::block);
  for (std::size_t i = 0; i < t.args.size(); ++i) {
    const std::string name = "arg " + std::to_string(i);
    rerun |= field(name.c_str(), t.args[i], SetLaunchText::arg, i);
    // A small buffer, lane by lane: eight cells a row.
    const auto spec = runner::parse_arg_spec(t.args[i]);
    if (!spec) continue;
    const auto values = buffer_elements(*spec, 64);
    if (!values || values->empty()) continue;
    const std::string tree = "values of arg " + std::to_string(i);
    if (!ImGui::TreeNode(tree.c_str())) continue;
    const float cell = (ImGui::GetContentRegionAvail().x - 7 * ImGui::GetStyle().ItemSpacing.x) / 8;
    for (std::size_t k = 0; k < values->size(); ++k) {
      if (k % 8 != 0) ImGui::SameLine();
      ImGui::PushID(static_cast<int>(1000 * i + k));
      if (edit_text("##v", (*values)[k], edited, cell)) {
        std::vector<std::string> changed = *values;
        changed[k] = edited;
        out.push_back(SetLaunchText{SetLaunchText::arg, i, buffer_spec_text(spec->type, changed)});
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("element %zu", k);
      rerun |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::PopID();
    }
    ImGui::TreePop();
  }
  const bool busy = m.running.has_value() || m.wanted.has_value();
  if (ImGui::Button(busy ? "Running ..." : "Run") || rerun) out.push_back(Rerun{});
  ImGui::SameLine();
  if (ImGui::Button("Reset")) out.push_back(ResetInputs{});
  if (!v.inputs_error.empty()) ImGui::TextColored(ImVec4(0.835f, 0.369f, 0, 1), "%s", v.inputs_error.c_str());
  ImGui::TextDisabled("--arg: TYPE:VALUE or TYPE[N]:zeros|iota|file:PATH|v1,v2,...");
}

}  // namespace warpsim::gui
