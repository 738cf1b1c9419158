// Recorded GPU runs of a lesson's presets: gpu/<preset>.json.gz beside the lesson.
#include <zlib.h>

#include <sstream>

#include "warpsim/course.hpp"

namespace warpsim::course {

std::filesystem::path gpu_record_path(const Lesson& lesson, const Preset& preset) {
  return lesson.dir / "gpu" / (preset.name + ".json.gz");
}

Expected<GpuRun> load_gpu_record(const Lesson& lesson, const Preset& preset) {
  const std::filesystem::path path = gpu_record_path(lesson, preset);
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) {
    return fail(ErrorKind::file, "no recorded GPU run (gpu/" + preset.name + ".json.gz)");
  }
  std::string text;
  char chunk[1 << 16];
  int n = 0;
  while ((n = gzread(file, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
  const bool failed = n < 0;
  gzclose(file);
  if (failed) return fail(ErrorKind::file, "cannot read " + path.string() + " (not gzip?)");
  auto run = read_gpu_run_json(text);
  if (!run) return fail(path.string() + ": " + run.error().message);
  return run;
}

Expected<void> save_gpu_record(const Lesson& lesson, const Preset& preset, const GpuRun& run) {
  const std::filesystem::path path = gpu_record_path(lesson, preset);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  std::ostringstream text;
  write_gpu_run_json(text, run);
  const std::string temporary = path.string() + ".tmp";
  gzFile file = gzopen(temporary.c_str(), "wb9");
  if (file == nullptr) return fail(ErrorKind::file, "cannot write " + temporary);
  const std::string bytes = text.str();
  const bool written = gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size())) ==
                       static_cast<int>(bytes.size());
  if (gzclose(file) != Z_OK || !written) return fail(ErrorKind::file, "cannot write " + temporary);
  std::filesystem::rename(temporary, path, error);
  if (error) return fail(ErrorKind::file, "cannot write " + path.string() + ": " + error.message());
  return {};
}

}  // namespace warpsim::course
