#include "user_headers.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "content_hash.hpp"
#include "kernel_compiler.hpp"
#include "source_tokens.hpp"

namespace warpsim::runner {
namespace fs = std::filesystem;
namespace {

// One file of the user's as read, and where each of its includes leads.
struct UserFile {
  std::string text;       // as read
  std::string rewritten;  // rewrite_user_file's text, includes not yet redirected
  std::vector<IncludeDirective> includes;
  std::vector<std::string> targets;  // per include: the user's file it reaches, or ""
  bool mirrored = false;
};

std::string normal(const fs::path& path) { return path.lexically_normal().string(); }

// What `#include` of `name` from the file at `from` reads: the path, and whether it is the
// user's; nullopt when no folder has it (a system header, or a missing one).
std::optional<std::pair<std::string, bool>> resolve(const IncludeDirective& include,
                                                    std::string_view name, const std::string& from,
                                                    const std::vector<IncludeFolder>& search,
                                                    const FileReader& read,
                                                    std::map<std::string, bool>& exists) {
  const auto has = [&](const std::string& path) {
    auto [it, fresh] = exists.try_emplace(path, false);
    if (fresh) it->second = read(path).has_value();
    return it->second;
  };
  if (fs::path(name).is_absolute()) {
    const std::string path = normal(fs::path(name));
    if (!has(path)) return std::nullopt;
    const bool user = std::none_of(search.begin(), search.end(), [&](const IncludeFolder& f) {
      return !f.user && path.rfind(f.path + "/", 0) == 0;
    });
    return std::make_pair(path, user);
  }
  if (!include.angled) {
    const std::string here = normal(fs::path(from).parent_path() / name);
    if (has(here)) return std::make_pair(here, true);
  }
  for (const IncludeFolder& folder : search) {
    const std::string path = normal(fs::path(folder.path) / name);
    if (has(path)) return std::make_pair(path, folder.user);
  }
  return std::nullopt;
}

// `text` with include `k` of `file` naming `target` instead.
std::string redirected(const UserFile& file, const std::vector<std::string>& replacement) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t k = 0; k < file.includes.size(); ++k) {
    if (replacement[k].empty()) continue;
    const IncludeDirective& include = file.includes[k];
    out.append(file.rewritten, copied, include.name_offset - copied);
    out += replacement[k];
    copied = include.name_offset + include.name_size;
  }
  out.append(file.rewritten, copied, std::string::npos);
  return out;
}

bool is_regular_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

}  // namespace

UserSources prepare_user_headers(std::string_view main_source, std::string_view main_path,
                                 const std::vector<IncludeFolder>& search,
                                 std::string_view mirror_dir, const FileRewrite& rewrite,
                                 const FileReader& read) {
  // Every user file reached, breadth first; the main file is files[main] and is not rewritten
  // here (its caller prepares it), only its includes redirected.
  const std::string main(main_path);
  std::map<std::string, UserFile> files;
  std::map<std::string, bool> exists;
  std::vector<std::string> order{main};
  files[main].text = std::string(main_source);
  for (std::size_t next = 0; next < order.size(); ++next) {
    const std::string path = order[next];
    UserFile& file = files[path];
    if (path != main) file.rewritten = rewrite(file.text);
    file.includes = include_directives(path == main ? file.text : file.rewritten);
    // The rewriters keep directives as they are, so the includes of the text as read are those
    // of the rewritten text; both are scanned to find them at their offsets.
    for (const IncludeDirective& include : file.includes) {
      const std::string_view text = path == main ? file.text : file.rewritten;
      const std::string_view name = text.substr(include.name_offset, include.name_size);
      const auto found = resolve(include, name, path, search, read, exists);
      std::string target;
      if (found && found->second) {
        target = found->first;
        if (files.count(target) == 0) {
          if (std::optional<std::string> text_read = read(target)) {
            files[target].text = std::move(*text_read);
            order.push_back(target);
          } else {
            target.clear();
          }
        }
      }
      files[path].targets.push_back(target);
    }
  }
  files[main].rewritten = files[main].text;

  // Mirrored: rewritten differently, or including a mirrored file (until nothing changes).
  for (auto& [path, file] : files) file.mirrored = path != main && file.rewritten != file.text;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [path, file] : files) {
      if (file.mirrored || path == main) continue;
      file.mirrored =
          std::any_of(file.targets.begin(), file.targets.end(),
                      [&](const std::string& t) { return !t.empty() && files[t].mirrored; });
      changed = changed || file.mirrored;
    }
  }
  std::map<std::string, std::string> mirror_names;  // path -> "N.basename"
  std::size_t count = 0;
  for (const auto& [path, file] : files) {
    if (file.mirrored) {
      mirror_names[path] = std::to_string(count++) + "." + fs::path(path).filename().string();
    }
  }

  // The texts, the mirrors named after `group`: once with an empty group to hash them all, then
  // with that hash.
  const auto render = [&](const std::string& group, const std::string& path) {
    const UserFile& file = files[path];
    std::vector<std::string> replacement;
    for (const std::string& target : file.targets) {
      if (target.empty()) {
        replacement.emplace_back();
      } else if (files[target].mirrored) {
        replacement.push_back(std::string(mirror_dir) + "/" + group + "." + mirror_names[target]);
      } else {
        replacement.push_back(target);
      }
    }
    std::string text = redirected(file, replacement);
    if (path == main) return text;
    std::string out = "#line 1 \"" + escape_for_string_literal(path) + "\"\n" + text;
    if (!out.empty() && out.back() != '\n') out += '\n';
    return out;
  };
  ContentHash hash;
  hash.add(mirror_dir);
  for (const auto& [path, name] : mirror_names) hash.add(path).add(render("", path));
  const std::string group = mirror_names.empty() ? "" : hash.hex();

  UserSources sources;
  sources.main = render(group, main);
  for (const auto& [path, name] : mirror_names) {
    sources.headers.push_back(
        {std::string(mirror_dir) + "/" + group + "." + name, render(group, path)});
  }
  return sources;
}

std::vector<IncludeFolder> user_include_folders(const std::vector<std::string>& flags) {
  std::vector<IncludeFolder> folders;
  for (const std::string& flag : flags) {
    if (flag.rfind("-I", 0) == 0 && flag.size() > 2) folders.push_back({flag.substr(2), true});
  }
  return folders;
}

std::optional<std::string> read_file_if_any(const std::string& path) {
  if (!is_regular_file(path)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Expected<void> write_prepared_headers(const std::vector<PreparedHeader>& headers) {
  for (const PreparedHeader& header : headers) {
    if (is_regular_file(header.path)) {
      ::utimensat(AT_FDCWD, header.path.c_str(), nullptr, 0);  // a use, for the cache's pruning
      continue;
    }
    if (!write_file_atomically(header.path, header.text)) {
      return fail(ErrorKind::file, "cannot write " + header.path + ": " + std::strerror(errno));
    }
  }
  return {};
}

}  // namespace warpsim::runner
