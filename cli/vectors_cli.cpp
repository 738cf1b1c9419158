// `warpsim vectors check FILE...` and `warpsim vectors record ...`.
#include <cstdio>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "warpsim/vectors.hpp"

namespace warpsim::cli {
namespace {

constexpr const char* kVectorsUsage =
    "usage: warpsim vectors check FILE.jsonl[.gz]...\n"
    "       warpsim vectors record --out FILE.jsonl[.gz] [--seed N] [--cases N] [--device N]\n";

int check_command(const Args& files) {
  if (files.empty()) {
    std::fprintf(stderr, "warpsim vectors check: no vector files given\n%s", kVectorsUsage);
    return kExitUsage;
  }
  return check_vector_files(files, std::cout, std::cerr);
}

}  // namespace

void print_vectors_help() {
  std::printf(
      "%s\n"
      "check   runs every case of GPU-recorded vector files through the simulator's semantics\n"
      "        and reports each mismatch; exit status 1 on any\n"
      "record  generates seeded cases and records what this machine's GPU returns (builds with\n"
      "        CUDA only; exit status 3 without a device)\n",
      kVectorsUsage);
}

int vectors_command(const Args& args) {
  if (args.empty()) {
    std::fprintf(stderr, "warpsim vectors: no subcommand given\n%s", kVectorsUsage);
    return kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h") {
    print_vectors_help();
    return 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "check") return check_command(rest);
  if (args[0] == "record") return vectors_record_command(rest);
  std::fprintf(stderr, "warpsim vectors: unknown subcommand '%s'\n%s", args[0].c_str(),
               kVectorsUsage);
  return kExitUsage;
}

}  // namespace warpsim::cli
