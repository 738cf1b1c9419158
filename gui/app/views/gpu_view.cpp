// The GPU side. Until the course layer supplies a GPU comparison value (a lesson's recorded H100
// run, or a live device), this tab says where the comparison will come from.
#include <imgui.h>

#include "views/views.hpp"

namespace warpsim::gui {

void draw_gpu_view(const Model&, const ViewState&, const Ui&, Commands&) {
  ImGui::TextWrapped(
      "No GPU run to compare with. Lessons ship a recorded H100 run of every preset (device, "
      "driver, date); where one is loaded, each step gets a 'gpu' row beside the simulator's, "
      "with every lane that differs marked with ! and a banner as loud as a diagnostic.");
  ImGui::Spacing();
  ImGui::TextDisabled("From a terminal on a machine with an NVIDIA GPU:");
  ImGui::TextDisabled("  warpsim run FILE.cu ... --gpu");
}

}  // namespace warpsim::gui
