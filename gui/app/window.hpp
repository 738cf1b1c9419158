// The window: GLFW, an OpenGL 3.3 core context, Dear ImGui with its GLFW and OpenGL3 backends, and
// the fonts (DejaVu Sans and Sans Mono where installed, ImGui's own otherwise) at the learner's
// size times the display's content scale (HiDPI).
#pragma once

#include <string>

#include "model/figure.hpp"

struct GLFWwindow;
struct ImFont;

namespace warpsim::gui {

// The faces a figure's text is drawn in, and their metrics.
struct Fonts {
  ImFont* label = nullptr;
  ImFont* value = nullptr;
  ImFont* small = nullptr;
  ImFont* title = nullptr;
  FontMetrics metrics;
  float pixel_size = 0;  // font size times content scale, as built
};

class Window {
 public:
  Window() = default;
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  ~Window();

  // Opens the window; false with `error` set when there is no display or no OpenGL 3.3.
  bool open(int width, int height, bool visible, std::string& error);
  GLFWwindow* handle() const { return window_; }
  float content_scale() const { return content_scale_; }
  const Fonts& fonts() const { return fonts_; }

  // Headless: ImGui sees no mouse (no hover, no tooltips in screenshots).
  void ignore_mouse(bool on) { ignore_mouse_ = on; }
  // Rebuilds the font atlas when the size changed (between frames only).
  void use_font_size(float size);
  void begin_frame();
  void end_frame();  // renders ImGui's draw data into the back buffer (no swap)
  void swap();
  bool should_close() const;
  void framebuffer_size(int& width, int& height) const;

 private:
  void build_fonts(float pixel_size);

  GLFWwindow* window_ = nullptr;
  bool imgui_ = false;
  bool started_ = false;
  bool ignore_mouse_ = false;
  float content_scale_ = 1;
  Fonts fonts_;
};

}  // namespace warpsim::gui
