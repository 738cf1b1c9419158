#include "gl_output.hpp"

#define GLFW_INCLUDE_GLEXT
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <cmath>
#include <vector>

#include "draw_figure.hpp"

namespace warpsim::gui {
namespace {

bool write_rows(std::vector<unsigned char>& rgba, int width, int height, const std::string& path,
                std::string& error) {
  // OpenGL's rows run bottom-up; PNG's top-down. Drop alpha: the figure is opaque.
  std::vector<unsigned char> rgb(static_cast<std::size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    const unsigned char* src = &rgba[static_cast<std::size_t>(height - 1 - y) * width * 4];
    unsigned char* dst = &rgb[static_cast<std::size_t>(y) * width * 3];
    for (int x = 0; x < width; ++x) {
      dst[3 * x] = src[4 * x];
      dst[3 * x + 1] = src[4 * x + 1];
      dst[3 * x + 2] = src[4 * x + 2];
    }
  }
  if (stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3) == 0) {
    error = "could not write " + path;
    return false;
  }
  return true;
}

// Framebuffer objects are OpenGL 3.0: fetched through GLFW rather than a loader.
struct FramebufferApi {
  PFNGLGENFRAMEBUFFERSPROC gen = nullptr;
  PFNGLBINDFRAMEBUFFERPROC bind = nullptr;
  PFNGLFRAMEBUFFERTEXTURE2DPROC texture = nullptr;
  PFNGLCHECKFRAMEBUFFERSTATUSPROC status = nullptr;
  PFNGLDELETEFRAMEBUFFERSPROC destroy = nullptr;

  bool load() {
    gen = reinterpret_cast<PFNGLGENFRAMEBUFFERSPROC>(glfwGetProcAddress("glGenFramebuffers"));
    bind = reinterpret_cast<PFNGLBINDFRAMEBUFFERPROC>(glfwGetProcAddress("glBindFramebuffer"));
    texture = reinterpret_cast<PFNGLFRAMEBUFFERTEXTURE2DPROC>(
        glfwGetProcAddress("glFramebufferTexture2D"));
    status = reinterpret_cast<PFNGLCHECKFRAMEBUFFERSTATUSPROC>(
        glfwGetProcAddress("glCheckFramebufferStatus"));
    destroy = reinterpret_cast<PFNGLDELETEFRAMEBUFFERSPROC>(
        glfwGetProcAddress("glDeleteFramebuffers"));
    return gen && bind && texture && status && destroy;
  }
};

}  // namespace

bool write_window_png(int width, int height, const std::string& path, std::string& error) {
  std::vector<unsigned char> rgba(static_cast<std::size_t>(width) * height * 4);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  return write_rows(rgba, width, height, path, error);
}

bool write_figure_png(const Figure& figure, const Fonts& fonts, const std::string& path,
                      std::string& error) {
  const int width = static_cast<int>(std::ceil(figure.width));
  const int height = static_cast<int>(std::ceil(figure.height));
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
    error = "the figure has no size to export";
    return false;
  }
  FramebufferApi fb;
  if (!fb.load()) {
    error = "OpenGL framebuffer objects are not available";
    return false;
  }
  GLuint texture = 0, framebuffer = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  fb.gen(1, &framebuffer);
  fb.bind(GL_FRAMEBUFFER, framebuffer);
  fb.texture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  bool ok = fb.status(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (ok) {
    ImDrawList list(ImGui::GetDrawListSharedData());
    list._ResetForNewFrame();
    list.PushClipRect(ImVec2(0, 0), ImVec2(static_cast<float>(width), static_cast<float>(height)));
    list.PushTextureID(ImGui::GetIO().Fonts->TexID);
    draw_figure(list, figure, 0, 0, fonts);
    ImDrawList* lists[] = {&list};
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = list.VtxBuffer.Size;
    data.TotalIdxCount = list.IdxBuffer.Size;
    data.DisplayPos = ImVec2(0, 0);
    data.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    data.FramebufferScale = ImVec2(1, 1);
    glViewport(0, 0, width, height);
    glClearColor(1, 1, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(&data);
    std::vector<unsigned char> rgba(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    ok = write_rows(rgba, width, height, path, error);
  } else {
    error = "could not set up an offscreen framebuffer";
  }
  fb.bind(GL_FRAMEBUFFER, 0);
  fb.destroy(1, &framebuffer);
  glDeleteTextures(1, &texture);
  return ok;
}

}  // namespace warpsim::gui
