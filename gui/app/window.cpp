#include "window.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace warpsim::gui {
namespace {

// Latin-1, the punctuation and arrows the views print (… · → ▶ ◀ ×).
constexpr ImWchar kGlyphs[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x2193,
                               0x2212, 0x2212, 0x25A0, 0x25CF, 0};

std::string font_path(const char* name) {
  const std::string path = std::string(WARPSIM_FONT_DIR) + "/" + name;
  std::error_code error;
  return std::filesystem::exists(path, error) ? path : std::string();
}

void error_callback(int, const char*) {}  // failures come back as return values

}  // namespace

Window::~Window() {
  if (imgui_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_ != nullptr) glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::open(int width, int height, bool visible, std::string& error) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((display == nullptr || *display == '\0') && (wayland == nullptr || *wayland == '\0')) {
    error = "no display ($DISPLAY and $WAYLAND_DISPLAY are unset): run it on a desktop, under "
            "xvfb-run, or use `warpsim walkthrough` in the terminal";
    return false;
  }
  glfwSetErrorCallback(error_callback);
  if (glfwInit() != GLFW_TRUE) {
    const char* why = nullptr;
    glfwGetError(&why);
    error = std::string("cannot open a window: ") + (why != nullptr ? why : "GLFW failed to start");
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  window_ = glfwCreateWindow(width, height, "warpsim", nullptr, nullptr);
  if (window_ == nullptr) {
    const char* why = nullptr;
    glfwGetError(&why);
    error = std::string("cannot open an OpenGL 3.3 window: ") + (why != nullptr ? why : "unknown");
    return false;
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  float sx = 1, sy = 1;
  glfwGetWindowContentScale(window_, &sx, &sy);
  content_scale_ = std::max(1.0f, std::max(sx, sy));

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed, nothing to remember
  ImGui::StyleColorsLight();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ = true;
  return true;
}

void Window::build_fonts(float pixel_size) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const std::string sans = font_path("DejaVuSans.ttf"), mono = font_path("DejaVuSansMono.ttf"),
                    bold = font_path("DejaVuSans-Bold.ttf");
  const auto load = [&](const std::string& path, float size) {
    ImFontConfig config;
    config.OversampleH = 2;
    if (path.empty()) {
      config.SizePixels = size;
      return io.Fonts->AddFontDefault(&config);
    }
    return io.Fonts->AddFontFromFileTTF(path.c_str(), size, &config, kGlyphs);
  };
  fonts_.label = load(sans, pixel_size);  // the first font is ImGui's default
  fonts_.value = load(mono, pixel_size);
  fonts_.small = load(sans, std::round(pixel_size * 0.8f));
  fonts_.title = load(bold.empty() ? sans : bold, std::round(pixel_size * 1.1f));
  io.Fonts->Build();
  fonts_.pixel_size = pixel_size;
  FontMetrics& m = fonts_.metrics;
  m.label_size = fonts_.label->FontSize;
  m.value_size = fonts_.value->FontSize;
  m.small_size = fonts_.small->FontSize;
  m.title_size = fonts_.title->FontSize;
  m.value_advance = fonts_.value->CalcTextSizeA(m.value_size, FLT_MAX, 0, "0000000000").x / 10;
  m.label_advance =
      fonts_.label->CalcTextSizeA(m.label_size, FLT_MAX, 0, "the lanes took part").x / 19;
}

void Window::use_font_size(float size) {
  const float pixel_size = std::round(size * content_scale_);
  if (pixel_size == fonts_.pixel_size) return;
  build_fonts(pixel_size);
  if (started_) {  // before the first frame the backend makes the texture itself
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  ImGuiStyle style;
  ImGui::StyleColorsLight(&style);
  style.ScaleAllSizes(pixel_size / 15.0f);
  style.WindowRounding = 0;
  style.WindowBorderSize = 1;
  // Panels have no background of their own (the frame is cleared white once: software GL fills
  // every pixel it is asked to, and a second full-screen fill costs a third of a frame), so the
  // fields get a grey of their own and the panels' borders a clear line.
  style.Colors[ImGuiCol_FrameBg] = ImVec4(0.89f, 0.89f, 0.89f, 1);
  style.Colors[ImGuiCol_FrameBgHovered] = ImVec4(0.80f, 0.87f, 0.96f, 1);
  style.Colors[ImGuiCol_Border] = ImVec4(0.62f, 0.62f, 0.62f, 1);
  ImGui::GetStyle() = style;
}

void Window::begin_frame() {
  started_ = true;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (ignore_mouse_) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
}

void Window::end_frame() {
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(1, 1, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::swap() { glfwSwapBuffers(window_); }

bool Window::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void Window::framebuffer_size(int& width, int& height) const {
  glfwGetFramebufferSize(window_, &width, &height);
}

}  // namespace warpsim::gui
