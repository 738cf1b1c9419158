// The figure of one step: the 32 lanes of a warp at one warp-level call, drawn from its StepView.
// Every lane is a column (or, when values are too wide for columns, a row) of cells: its number,
// its state (colour, pattern and a tag), its bit of the mask, then the call itself:
//
//   shuffles    values in, an arrow from each source lane to the lane that read it, values out
//   votes       predicates in, each one falling into its bit of one word, the word out
//   matches     values in coloured by group (and lettered), a bracket per group, groups out
//   reductions  values in, a tree into the one result, the result out to every caller
//   barriers    every lane that arrived, stopped at a bar
//
// Above the call, the warp's earlier steps as thin bands (a butterfly draws itself step by step);
// above them the call's name, facts and contract, and a banner per diagnostic; below, a legend.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "model/figure.hpp"
#include "warpsim/step_view.hpp"

namespace warpsim::gui {

enum class Orientation : std::uint8_t {
  automatic,     // lanes across when every value fits a column, else lanes down
  lanes_across,  // lane 0 ... lane 31 left to right, time flowing down
  lanes_down,    // lane 0 ... lane 31 top to bottom, time flowing right
};

struct StepFigureOptions {
  float width = 1200;  // the space available; lanes across are fitted into it
  FontMetrics metrics;
  // The width of a text in a face, as the backend will paint it; unset: estimated from metrics.
  std::function<float(std::string_view, Face)> measure;
  Orientation orientation = Orientation::automatic;
  int watched_lane = -1;       // highlighted column, and its arrow drawn on top
  bool hide_outputs = false;   // predict mode: what lanes received is not shown yet (nor the
                               // ballot's word, the match groups, the lanes read)
  LaneMask hidden_inputs = 0;  // predict mode: lanes whose input a question asks (or gives away)
  bool hide_after = false;     // predict mode: the next step asks what lanes pass in
  // Predict mode: the learner's guesses, shown in the hidden cells of the asked row (the inputs'
  // when some are hidden, else the outputs'); empty: none.
  std::array<std::string, kWarpSize> guesses{};
  float reveal = 1;            // 0..1: how far arrows have grown (the stepping animation)
  bool title = true;
  bool contract = true;  // the call's one-line contract under the title
  bool legend = true;
  std::vector<std::string> diagnostics;  // this step's diagnostics, one line each
  std::vector<std::string> caption;      // paragraphs under the title (a lesson's note), wrapped
  std::string other_note;  // where the other row comes from: "H100 80GB · driver 580.65 · ..."
  // The other row is a grading case's "expected" (the reference solution's lanes), not a GPU's.
  bool other_is_expected = false;
};

Figure build_step_figure(const StepView& step, std::span<const StepView> history,
                         const StepFigureOptions& options);

// What `automatic` decides for this step at this width.
Orientation choose_orientation(const StepView& step, const StepFigureOptions& options);

// "shfl_xor 16", "ballot", "syncthreads": a step in a few characters (history bands, timeline).
std::string short_name(const StepView& step);

}  // namespace warpsim::gui
