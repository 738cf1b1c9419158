// The GPU side: where the GPU's run comes from (the lesson's recorded run, or a file given with
// --gpu-record: device, driver, CUDA, date), its buffers against the simulator's, and its steps.
// A difference is shown as loudly as a diagnostic; each step's own lanes are in the lane view's
// 'gpu' row.
#include <imgui.h>

#include "model/palette.hpp"
#include "warpsim/runner.hpp"
#include "views/views.hpp"

namespace warpsim::gui {

void draw_gpu_view(const Model& m, const ViewState&, const Ui&, Commands& out) {
  if (!m.run) return;
  if (!m.run->gpu) {
    ImGui::TextWrapped("%s", m.run->gpu_note.empty() ? "No GPU run to compare with."
                                                       : m.run->gpu_note.c_str());
    ImGui::Spacing();
    ImGui::TextDisabled("Lessons ship a recorded GPU run per preset (lessons/record_gpu.sh); any");
    ImGui::TextDisabled("recorded run can be given with --gpu-record FILE.json.gz.");
    return;
  }
  const GpuSide& g = *m.run->gpu;
  const GpuComparison& c = g.comparison;
  ImGui::TextWrapped("%s", provenance(g.device).c_str());
  ImGui::TextDisabled("%s", g.source.c_str());
  ImGui::Separator();
  if (c.matches() && g.differing_steps.empty()) {
    ImGui::TextColored(colour4(okabe_ito::bluish_green), "The GPU agrees with the simulator%s.",
                       c.steps ? ", buffer by buffer and step by step" : " on every buffer");
  } else {
    ImGui::TextColored(colour4(kPalette.differs), "! The GPU does NOT agree with the simulator.");
  }
  for (const BufferComparison& b : c.buffers) {
    const std::string name = runner::buffer_name(b.arg, b.field);
    if (!b.problem.empty()) {
      ImGui::TextColored(colour4(kPalette.differs), "%s: %s", name.c_str(), b.problem.c_str());
    } else if (b.differing > 0) {
      ImGui::TextColored(colour4(kPalette.differs),
                         "%s: %llu of %llu elements differ; first [%llu]: simulator %s, GPU %s",
                         name.c_str(), static_cast<unsigned long long>(b.differing),
                         static_cast<unsigned long long>(b.count),
                         static_cast<unsigned long long>(b.first_index.value_or(0)),
                         format_element(b.sim_bits, b.type).c_str(),
                         format_element(b.gpu_bits, b.type).c_str());
    } else {
      ImGui::Text("%s: %llu elements, all equal%s", name.c_str(),
                  static_cast<unsigned long long>(b.count),
                  b.within_tolerance > 0 ? " (within the tolerance)" : "");
    }
  }
  if (c.steps) {
    const TraceComparison& t = *c.steps;
    ImGui::Text("steps: %llu lanes of %llu traced blocks compared, %llu calls",
                static_cast<unsigned long long>(t.lanes),
                static_cast<unsigned long long>(c.traced_blocks),
                static_cast<unsigned long long>(t.calls));
    if (!t.incomparable.empty()) ImGui::TextWrapped("%s", t.incomparable.c_str());
    if (t.first_difference) {
      const CallDifference& d = *t.first_difference;
      ImGui::TextColored(colour4(kPalette.differs),
                         "first difference: block %llu warp %u lane %u, call %llu (%s)",
                         static_cast<unsigned long long>(d.block), d.warp, d.lane,
                         static_cast<unsigned long long>(d.call),
                         std::string(to_string(d.field)).c_str());
      if (d.sim_step >= 0 && ImGui::Button("Go to that step")) {
        out.push_back(GoTo{static_cast<std::size_t>(d.sim_step)});
      }
    }
  } else if (!c.steps_note.empty()) {
    ImGui::TextWrapped("%s", c.steps_note.c_str());
  }
  if (!g.differing_steps.empty()) {
    ImGui::TextColored(colour4(kPalette.differs), "%zu steps where a lane's GPU value differs",
                       g.differing_steps.size());
    if (ImGui::Button("Go to the first")) out.push_back(GoTo{g.differing_steps.front()});
  }
}

}  // namespace warpsim::gui
