/* The OpenGL entry points as the system declares them (libOpenGL, GLVND, exports them all). The
 * imgui OpenGL3 backend is compiled against these (IMGUI_IMPL_OPENGL_LOADER_CUSTOM) rather than
 * its bundled loader, whose copy in Debian's libimgui-dev 1.86 writes one entry past the end of
 * its table (54 names, 53 slots; fixed upstream in 1.87), as UBSan reports. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
