// The views: one file each, each a function of the model and the view state that draws with
// ImGui and pushes Commands; none changes the model or the view state, none runs anything.
// Adding a view is one file plus one call in main.cpp. Adding a side tab is three places: its
// value and --tab name (model/tabs.hpp), its row in side_panel.cpp's table, and its own file
// (the build takes every file of this folder).
#pragma once

#include <string>

#include "imgui_colour.hpp"
#include "model/app_model.hpp"
#include "model/screen_layout.hpp"
#include "window.hpp"

namespace warpsim::gui {

// What the app computed for this frame, read-only for the views.
struct Ui {
  const Fonts& fonts;
  double now = 0;
  ScreenLayout layout;
  const Figure& lane_figure;  // the current step's figure, built once per frame
};

void draw_toolbar(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_timeline(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_lane_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_source_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_narrative_view(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
void draw_side_panel(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
// (The side panel's tabs are declared beside their table, in side_panel.cpp.)
// The open exercise's task (its statement; the grading's verdict over it when every case passes
// or the file does not compile): the lane view's content while no case is open.
void draw_exercise_task(const Model& model, const Ui& ui);
// Over everything, when asked for (F1 or ?).
void draw_help_overlay(const Model& model, const ViewState& view, const Ui& ui, Commands& out);
// Keys to commands (the same table the help overlay lists).
void handle_shortcuts(const Model& model, const ViewState& view, const Ui& ui, Commands& out);

// ---- helpers shared by the views
// A fixed, undecorated window over `area`; always pair with ImGui::End().
void begin_panel(const char* id, Box area, int extra_flags = 0);
// A panel's heading: small, faint, then a separator.
void panel_heading(const Ui& ui, const char* text);
// Whether a keyboard shortcut may fire (no text field has the keyboard).
bool keys_free();
// `text` cut to `width` pixels in the current font, ending in "…" where it was cut (whole UTF-8
// characters); `text` itself where it fits.
std::string fitted(const std::string& text, float width);
// A line of text in `colour` that fits the space left on the line: cut with "…", the whole text
// as the tooltip where it was cut.
void text_fitted(const std::string& text, Rgba colour);

}  // namespace warpsim::gui
