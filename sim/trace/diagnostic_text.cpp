// The wording of diagnostics (diagnostic_text.hpp). Every message the simulator writes about
// misuse is built here, from values only.
#include "warpsim/diagnostic_text.hpp"

#include <bit>
#include <cstdio>
#include <type_traits>

namespace warpsim {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string cuda_name(Op op) { return "__" + std::string(to_string(op)); }

std::string lanes_text(LaneMask lanes) {
  if (lanes == 0) return "no lane";
  return (std::has_single_bit(lanes) ? "lane " : "lanes ") + format_lanes(lanes);
}

std::string site_text(SourceLine where, std::span<const std::string> files) {
  std::string file = where.file < files.size() ? files[where.file] : "?";
  const auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file.erase(0, slash + 1);
  return file + ":" + std::to_string(where.line);
}

DiagnosticKind kind_of(const DiagnosticFacts& facts) {
  return std::visit(
      Overloaded{
          [](const facts::CallerNotInMask&) { return DiagnosticKind::caller_not_in_mask; },
          [](const facts::MaskMismatch&) { return DiagnosticKind::mask_mismatch; },
          [](const facts::SplitCallSites&) { return DiagnosticKind::split_call_sites; },
          [](const facts::UndefinedSource&) { return DiagnosticKind::undefined_source; },
          [](const facts::BarrierSplit&) { return DiagnosticKind::divergent_syncthreads; },
          [](const facts::BarrierAfterExit&) { return DiagnosticKind::divergent_syncthreads; },
          [](const facts::MissingLane&) { return DiagnosticKind::missing_lane; },
          [](const facts::Deadlock&) { return DiagnosticKind::deadlock; },
          [](const facts::BarrierDeadlock&) { return DiagnosticKind::deadlock; },
          [](const facts::NamedLaneExitedLater&) { return DiagnosticKind::named_lane_exited_later; },
          [](const facts::ActivemaskAsMask&) { return DiagnosticKind::activemask_as_mask; },
          [](const facts::UninitialisedValue&) { return DiagnosticKind::uninitialised_value; },
      },
      facts);
}

LaneMask lanes_of(const DiagnosticFacts& facts) {
  return std::visit(Overloaded{
                        [](const facts::Deadlock& f) { return f.missing != 0 ? f.missing : f.waiting; },
                        [](const facts::BarrierDeadlock& f) { return f.lanes; },
                        [](const facts::SplitCallSites& f) { return f.lanes | f.others; },
                        [](const facts::UninitialisedValue& f) { return f.lanes | f.sources; },
                        [](const auto& f) { return f.lanes; },
                    },
                    facts);
}

bool merge_facts(DiagnosticFacts& into, const DiagnosticFacts& more) {
  if (into.index() != more.index()) return false;
  const auto widen = [](LaneMask& a, LaneMask b) {
    const bool changed = (a | b) != a;
    a |= b;
    return changed;
  };
  return std::visit(
      [&](auto& f) {
        using F = std::decay_t<decltype(f)>;
        const F& m = std::get<F>(more);
        if constexpr (std::is_same_v<F, facts::Deadlock> || std::is_same_v<F, facts::BarrierDeadlock>) {
          return false;  // each deadlock stands alone
        } else if constexpr (std::is_same_v<F, facts::SplitCallSites>) {
          const bool a = widen(f.lanes, m.lanes);
          const bool b = widen(f.others, m.others);
          return a || b;
        } else if constexpr (std::is_same_v<F, facts::UninitialisedValue>) {
          const bool a = widen(f.lanes, m.lanes);
          const bool b = widen(f.sources, m.sources);
          return a || b;
        } else if constexpr (std::is_same_v<F, facts::NamedLaneExitedLater>) {
          if (f.other_mask != m.other_mask) return false;  // different stories: the first stays
          const bool a = widen(f.lanes, m.lanes);
          const bool b = widen(f.callers, m.callers);
          return a || b;
        } else {
          return widen(f.lanes, m.lanes);
        }
      },
      into);
}

std::string diagnostic_message(const DiagnosticFacts& facts, std::span<const std::string> files) {
  const auto at = [&](SourceLine where) { return site_text(where, files); };
  return std::visit(
      Overloaded{
          [&](const facts::CallerNotInMask& f) {
            return lanes_text(f.lanes) + " called " + cuda_name(f.op) + " with mask " +
                   format_mask(f.mask) + ", which does not name " +
                   (std::has_single_bit(f.lanes) ? "it" : "them") +
                   ": undefined in CUDA (on an sm_90 GPU converged lanes take part anyway where the "
                   "compiler can tell the mask is one value in every lane, a constant or a kernel "
                   "argument; where it cannot, as for a mask computed from the lane index, the "
                   "kernel stops with an illegal instruction)";
          },
          [&](const facts::MaskMismatch& f) {
            return lanes_text(f.lanes) + " met in one " + cuda_name(f.op) +
                   " with different masks (lane " + std::to_string(f.first) + " passed " +
                   format_mask(f.first_mask) + ", lane " + std::to_string(f.other) + " " +
                   format_mask(f.other_mask) +
                   "): CUDA requires one mask; simulated as one call over the lanes that "
                   "arrived, as an H100 runs it";
          },
          [&](const facts::SplitCallSites& f) {
            return lanes_text(f.lanes) + " at " + at(f.where) + " and " + lanes_text(f.others) +
                   " at " + at(f.elsewhere) + (f.more_sites ? " and other lines" : "") +
                   " met in one " + cuda_name(f.op) +
                   ": Volta and later GPUs combine calls from different lines, so it completes, "
                   "but each group passed its own line's value, at its own place in the "
                   "algorithm: check that these lanes were meant to meet here";
          },
          [&](const facts::UndefinedSource& f) {
            const char* why = f.why == facts::UndefinedSource::Why::exited ? "has exited"
                              : f.why == facts::UndefinedSource::Why::not_calling
                                  ? "did not make this call"
                                  : "is outside the mask";
            return cuda_name(f.op) + ": " + lanes_text(f.lanes) + " read a lane that " + why +
                   " (e.g. lane " + std::to_string(f.reader) + " read lane " +
                   std::to_string(f.source) +
                   "); the result is undefined (an H100 returns 0 for an absent lane)";
          },
          [&](const facts::BarrierSplit& f) {
            return "threads of the block reached this barrier from different lines or forms (" +
                   cuda_name(f.form) + " at " + at(f.where) + ", " + cuda_name(f.other_form) +
                   " at " + at(f.elsewhere) +
                   "): divergent code; CUDA requires every thread to reach the same "
                   "__syncthreads";
          },
          [&](const facts::BarrierAfterExit& f) {
            return plural(f.exited_threads, "thread", "threads") +
                   " of the block exited before this " + cuda_name(f.form) +
                   "; hardware releases the barrier without them, but CUDA leaves this undefined";
          },
          [&](const facts::MissingLane& f) {
            return lanes_text(f.lanes) + ", named in the mask of " + cuda_name(f.op) + " at " +
                   at(f.where) + ", never arrive" +
                   (f.waiting ? ": they wait in " + cuda_name(f.their_op) + " at " + at(f.elsewhere)
                              : ": they are at " + at(f.elsewhere));
          },
          [&](const facts::Deadlock& f) {
            using MissingAre = facts::Deadlock::MissingAre;
            std::string text = "warp " + std::to_string(f.warp) + " " + lanes_text(f.waiting) +
                               " wait in " + cuda_name(f.op) + " at " + at(f.where) +
                               " with mask " + format_mask(f.mask) + ", but " +
                               lanes_text(f.missing) + " named in it ";
            switch (f.missing_are) {
              case MissingAre::at_barrier:
                text += "wait in " + cuda_name(f.their_op) + " at " + at(f.elsewhere);
                break;
              case MissingAre::at_same_op:
                text += "wait in " + cuda_name(f.their_op) + " at " + at(f.elsewhere) +
                        " with mask " + format_mask(f.their_mask);
                break;
              case MissingAre::at_other_op:
                text += "wait in " + cuda_name(f.their_op) + " at " + at(f.elsewhere) +
                        " (different operations never meet: hardware hangs)";
                break;
              case MissingAre::never_arriving:
              case MissingAre::none:
                text += "never arrive";
                break;
            }
            return text;
          },
          [&](const facts::BarrierDeadlock& f) {
            if (f.op != Op::barrier_sync) {
              return std::string("threads wait in __syncthreads that other threads never reach");
            }
            const BarrierWait call{f.warp, f.lanes, f.op, f.id, f.count, "", f.count != 0};
            std::string text = lanes_text(f.lanes) + " of warp " + std::to_string(f.warp) +
                               " wait in " + barrier_call_text(call) + " at " +
                               site_text(f.where, files) + ", but only " +
                               std::to_string(f.arrived) + " of the " +
                               plural(f.needed, "warp", "warps") + " barrier " +
                               std::to_string(f.id) +
                               " needs arrived, and no other warp can (the others have exited "
                               "or wait elsewhere)";
            if (f.completions != 0) {
              text += "; barrier " + std::to_string(f.id) + " completed " +
                      plural(f.completions, "time", "times") +
                      " already: more warps arrived than its count of " +
                      std::to_string(f.count) + " threads takes";
            }
            return text;
          },
          [&](const facts::NamedLaneExitedLater& f) {
            const bool one = std::has_single_bit(f.lanes);
            std::string text = lanes_text(f.lanes) + (one ? " is" : " are") +
                               " named in the mask " + format_mask(f.mask) + " of " +
                               cuda_name(f.op) + " but had not exited when " +
                               lanes_text(f.callers) + " made the call: " +
                               (one ? "it" : "they");
            if (f.other_mask) {
              text += std::string(" made this call ") + (one ? "itself" : "themselves") +
                      " with a mask of " + (one ? "its" : "their") + " own (lane " +
                      std::to_string(f.their_lane) + " passed " + format_mask(f.their_mask) +
                      ") and exited later. Undefined in CUDA: every lane a mask names must make "
                      "the call with that same mask. On an sm_90 GPU the lanes of each mask "
                      "complete apart where every caller is in its own mask, and the kernel "
                      "stops with an illegal instruction where one is not. Pass every lane the "
                      "same mask and choose lanes with the predicate";
            } else if (f.left_loop) {
              text += std::string(" had left the loop the call is in (") +
                      (one ? "its" : "their") + " last call was in it) and exited later. Undefined in CUDA: every named lane that has not exited "
                      "must make the call; an H100 completes it only because they exit "
                      "afterwards. Give every lane the same trip count, or name only the lanes "
                      "still in the loop (a __ballot_sync of the loop condition)";
            } else {
              text += " went past it (it is in a branch they did not take) and exited later. "
                      "Undefined in CUDA: every named lane that has not exited must make the "
                      "call; an H100 completes it only because they exit afterwards. Name only "
                      "the lanes that take this path (a __ballot_sync before the branch)";
            }
            return text;
          },
          [&](const facts::ActivemaskAsMask& f) {
            return lanes_text(f.lanes) + " passed " + cuda_name(f.op) + " as " +
                   (std::has_single_bit(f.lanes) ? "its" : "their") +
                   " mask what __activemask() at " + at(f.activemask_at) + " returned (lane " +
                   std::to_string(std::countr_zero(f.lanes)) + " got " + format_mask(f.mask) +
                   "): that names the lanes that happened to run together there, not the lanes "
                   "that will make this call; under independent thread scheduling that set can "
                   "differ (--policy interleaved shows it). Pass the lanes meant to take part "
                   "(0xffffffff in converged code, a __ballot_sync of the condition before a "
                   "branch), or cooperative groups' coalesced_threads() where any subset will do";
          },
          [&](const facts::UninitialisedValue& f) {
            char bits[24];
            std::snprintf(bits, sizeof bits, "0x%llx", static_cast<unsigned long long>(f.bits));
            const bool one = std::has_single_bit(f.sources);
            return lanes_text(f.lanes) + " read through " + cuda_name(f.op) + " a value that " +
                   lanes_text(f.sources) + " never set (e.g. lane " + std::to_string(f.reader) +
                   " read lane " + std::to_string(f.source) + "'s " + bits +
                   ", the pattern the compiler fills never-set locals with): the variable " +
                   (one ? "that lane" : "those lanes") +
                   " passed is uninitialised on their path, so what the readers get differs "
                   "between compilers and between the simulator and a GPU. Give it a value on "
                   "every path (e.g. where it is declared)";
          },
      },
      facts);
}

std::string barrier_call_text(const BarrierWait& w) {
  if (w.op != Op::barrier_sync) return cuda_name(w.op) + "()";
  if (!w.counted) return "__barrier_sync(" + std::to_string(w.id) + ")";
  return "__barrier_sync_count(" + std::to_string(w.id) + ", " + std::to_string(w.count) + ")";
}

std::string named_barrier_misuse_message(const BarrierWait& call, sync::NamedBarrierMisuse misuse,
                                         std::uint32_t block_threads) {
  std::string text = call.site + ": " + barrier_call_text(call) + " in warp " +
                     std::to_string(call.warp) + ": ";
  switch (misuse) {
    case sync::NamedBarrierMisuse::id_out_of_range:
      return text + "barrier " + std::to_string(call.id) +
             " does not exist: a block has barriers 0 to 15 (bar.sync)";
    case sync::NamedBarrierMisuse::count_not_warps:
      return text + "the thread count must be a non-zero multiple of the warp size, 32 (bar.sync)";
    case sync::NamedBarrierMisuse::count_over_block:
      return text + "the block's " + plural(block_threads, "thread", "threads") +
             " can never bring " + std::to_string(call.count) +
             " to the barrier (warps arrive whole, 32 at a time): it would wait forever";
    case sync::NamedBarrierMisuse::none:
      break;
  }
  return text + "no misuse";
}

namespace {
std::string wait_text(const BarrierWait& w) {
  return lanes_text(w.lanes) + " wait in " + barrier_call_text(w) + " at " + w.site;
}
}  // namespace

std::string barrier_split_message(const BarrierWait& a, const BarrierWait& b) {
  return "in warp " + std::to_string(a.warp) + ", " + wait_text(a) + " and " + wait_text(b) +
         ": bar.sync waits for every lane of its warp and counts the warp once, so the lanes of a "
         "warp must meet at one barrier with one count (the GPU's behaviour is undefined)";
}

std::string barrier_count_message(const BarrierWait& a, const BarrierWait& b) {
  return "barrier " + std::to_string(a.id) + " is waited at with two thread counts: warp " +
         std::to_string(a.warp) + " (" + wait_text(a) + ") and warp " + std::to_string(b.warp) +
         " (" + wait_text(b) + "); every thread of a barrier must pass the same count (the "
         "GPU's behaviour is undefined)";
}

std::string deadlock_stop_message(std::uint64_t block, const std::string& what) {
  return "deadlock in block " + std::to_string(block) + ": " + what;
}

std::string step_budget_message(std::uint64_t max_steps, std::uint64_t block, std::uint32_t warp,
                                const std::string& site) {
  return "step budget of " + std::to_string(max_steps) +
         " warp-level operations exceeded (a runaway loop?) in block " + std::to_string(block) +
         " warp " + std::to_string(warp) + " at " + site;
}

std::string livelock_stop_message(std::uint64_t block, std::uint64_t spin_limit,
                                  std::span<const LivelockSpinner> spinners, std::uint64_t waiting,
                                  std::span<const std::string> files, bool blocks_resident) {
  std::string text = "livelock in block " + std::to_string(block) + ": ";
  for (std::size_t k = 0; k < spinners.size(); ++k) {
    const LivelockSpinner& s = spinners[k];
    if (k > 0) text += "; ";
    text += lanes_text(s.lanes) + " of warp " + std::to_string(s.warp) + " spun without progress";
    if (s.where.line != 0) text += " at " + site_text(s.where, files);
  }
  text += " (" + std::to_string(spin_limit) +
          " loop iterations and atomics in the block with no warp-level step, barrier or exit; ";
  if (waiting > 0) {
    text += plural(waiting, "thread waits", "threads wait") +
            " in warp-level calls or barriers meanwhile; ";
  }
  text += blocks_resident
              ? "nothing they wait for can happen: no block of the cooperative launch, all of "
                "them resident, progressed meanwhile)"
              : "nothing they wait for can happen: a flag never set, or set by a later block, and "
                "warpsim runs blocks one at a time)";
  return text;
}

std::string time_limit_stop_message(std::uint64_t block, std::span<const LivelockSpinner> spinners,
                                    std::span<const std::string> files) {
  std::string text = "the time limit passed while block " + std::to_string(block) +
                     " ran: the launch was stopped there, with what it had found so far";
  // Warps in a row whose same lanes loop at the same line are said once: "of warps 0-7".
  for (std::size_t k = 0; k < spinners.size();) {
    const LivelockSpinner& s = spinners[k];
    std::size_t next = k + 1;
    while (next < spinners.size() && spinners[next].lanes == s.lanes &&
           spinners[next].where == s.where && spinners[next].warp == s.warp + (next - k)) {
      ++next;
    }
    text += k == 0 ? "; " : ", ";
    text += lanes_text(s.lanes) +
            (next - k == 1 ? " of warp " + std::to_string(s.warp)
                           : " of warps " + std::to_string(s.warp) + "-" +
                                 std::to_string(spinners[next - 1].warp)) +
            (std::has_single_bit(s.lanes) && next - k == 1 ? " was" : " were") + " looping";
    if (s.where.line != 0) text += " at " + site_text(s.where, files);
    k = next;
  }
  return text;
}

std::string kernel_exception_message(const char* what) {
  if (what == nullptr) return "kernel code threw a non-standard exception";
  return "kernel code threw: " + std::string(what);
}

}  // namespace warpsim
