// The inline PTX translator (sim/runner/ptx_translate.hpp): what it reads from an asm statement,
// the C++ it writes for each form, and the instruction and reason it names for what it does not
// run. What the C++ computes is checked lane by lane in run_result_test (ptx_blocks).
#include <doctest/doctest.h>

#include <string>

#include "runner/ptx_translate.hpp"

using namespace warpsim::runner;

namespace {

AsmStatement asm_of(std::string ptx, std::vector<AsmOperand> outputs,
                    std::vector<AsmOperand> inputs = {}) {
  return {std::move(ptx), std::move(outputs), std::move(inputs)};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("an asm statement's template, operands and clobbers are read from its source text") {
  const auto s = parse_asm_statement(
      "\"{ .reg .pred p;\\n\\t\" \"setp.ne.u32 p, %1, 0; }\" : \"=r\"(out[i]) : \"r\"(f(a, b)), "
      "\"l\"(ptr) : \"memory\"");
  REQUIRE(s);
  CHECK(s->ptx == "{ .reg .pred p;\n\tsetp.ne.u32 p, %1, 0; }");
  REQUIRE(s->outputs.size() == 1);
  CHECK(s->outputs[0].constraint == "=r");
  CHECK(s->outputs[0].expression == "out[i]");
  REQUIRE(s->inputs.size() == 2);
  CHECK(s->inputs[0].expression == "f(a, b)");
  CHECK(s->inputs[1].constraint == "l");
  CHECK_FALSE(parse_asm_statement("\"mov.u32 %0, 1;\" : [x] \"=r\"(x)"));
  // No outputs: "::" is two separators; a scope operator sits inside an operand's parentheses.
  const auto sync = parse_asm_statement("\"bar.warp.sync %0;\" :: \"r\"(::std::max(a, b)) : \"memory\"");
  REQUIRE(sync);
  CHECK(sync->outputs.empty());
  REQUIRE(sync->inputs.size() == 1);
  CHECK(sync->inputs[0].expression == "::std::max(a, b)");
  CHECK(translate_ptx(*sync).ok());
  CHECK(looks_like_ptx("mov.u32 %0, %%laneid;"));
  CHECK(looks_like_ptx("  {\n.reg .pred p; }"));
  CHECK(looks_like_ptx("exit;"));
  CHECK_FALSE(looks_like_ptx("pause"));
  CHECK_FALSE(looks_like_ptx(""));
}

TEST_CASE("each form becomes calls of warpsim/inline_ptx.hpp on widths PTX gives the registers") {
  SUBCASE("operands: outputs assigned back, read-write and tied outputs read first, immediates") {
    const PtxTranslation t = translate_ptx(asm_of(
        "add.u32 %0, %1, %2;", {{"+r", "acc"}}, {{"n", "7"}, {"0", "seed"}}));
    REQUIRE(t.ok());
    CHECK(has(t.code, "auto& warpsim_ptx_out0 = (acc); std::uint32_t warpsim_ptx_0 = "
                      "::warpsim::ptx::in<std::uint32_t>(warpsim_ptx_out0);"));
    CHECK(has(t.code, "warpsim_ptx_0 = ::warpsim::ptx::in<std::uint32_t>(seed);"));
    CHECK(has(t.code, "::warpsim::ptx::add<::warpsim::ptx::u32>(static_cast<std::uint32_t>("
                      "warpsim_ptx_1), warpsim_ptx_0)"));
    CHECK(has(t.code, "::warpsim::ptx::out<std::uint32_t>(warpsim_ptx_out0, warpsim_ptx_0);"));
  }
  SUBCASE("a guard, a dual destination and register ranges") {
    const PtxTranslation t = translate_ptx(
        asm_of("{ .reg .u32 r<2>; .reg .pred p; shfl.sync.down.b32 r1|p, %1, 1, 31, -1; "
               "@!p mov.u32 r1, 0; mov.u32 %0, r1; }",
               {{"=r", "d"}}, {{"r", "v"}}));
    REQUIRE(t.ok());
    CHECK(has(t.code, "std::uint32_t warpsim_ptx_r_r0{}; std::uint32_t warpsim_ptx_r_r1{};"));
    CHECK(has(t.code, "warpsim_ptx_r_r1 = ::warpsim::ptx::shfl(::warpsim::Op::shfl_down, "));
    CHECK(has(t.code, "&warpsim_ptx_r_p)"));
    CHECK(has(t.code, "if (!warpsim_ptx_r_p) { warpsim_ptx_r_r1 = "));
  }
  SUBCASE("float operands are read as float, fences change nothing") {
    const PtxTranslation t = translate_ptx(
        asm_of("{ membar.gl; fence.acq_rel.gpu; mov.b32 %0, %1; }", {{"=f", "y"}}, {{"f", "x"}}));
    REQUIRE(t.ok());
    CHECK(has(t.code, "::warpsim::ptx::in<float>(x)"));
    CHECK(has(t.code, "::warpsim::ptx::fence(); ::warpsim::ptx::fence();"));
    CHECK(has(t.code, "::warpsim::ptx::out<float>(warpsim_ptx_out0, warpsim_ptx_0);"));
  }
  SUBCASE("64-bit operands, vectors, conversions, special registers") {
    CHECK(has(translate_ptx(asm_of("mov.b64 %0, {%1, %2};", {{"=l", "d"}}, {{"r", "a"}, {"r", "b"}})).code,
              "::warpsim::ptx::pack<std::uint64_t>(warpsim_ptx_1, warpsim_ptx_2)"));
    CHECK(has(translate_ptx(asm_of("mov.b64 {%0, %1}, %2;", {{"=r", "a"}, {"=r", "b"}}, {{"l", "d"}})).code,
              "::warpsim::ptx::unpack(warpsim_ptx_2, warpsim_ptx_0, warpsim_ptx_1);"));
    CHECK(has(translate_ptx(asm_of("cvt.rn.f16.f32 %0, %1;", {{"=h", "h"}}, {{"f", "x"}})).code,
              "::warpsim::ptx::cvt<::warpsim::ptx::f16, ::warpsim::ptx::f32>("));
    CHECK(has(translate_ptx(asm_of("cvt.u8.u32 %0, %1;", {{"=r", "b"}}, {{"r", "x"}})).code,
              "::warpsim::ptx::widen<std::uint32_t, ::warpsim::ptx::u8>("));
    CHECK(has(translate_ptx(asm_of("mov.u32 %0, %%tid.y;", {{"=r", "t"}})).code,
              "::warpsim::ptx::tid(1)"));
    // Timers, also written with one % (cudaGraphsPerfScaling's __globaltimer()).
    CHECK(has(translate_ptx(asm_of("mov.u64 %0, %globaltimer;", {{"=l", "t"}})).code,
              "::warpsim::ptx::globaltimer_register()"));
    CHECK(has(translate_ptx(asm_of("mov.u32 %0, %%globaltimer_lo;", {{"=r", "t"}})).code,
              "::warpsim::ptx::globaltimer_lo_register()"));
    CHECK(has(translate_ptx(asm_of("mov.u64 %0, %%clock64;", {{"=l", "t"}})).code,
              "::warpsim::ptx::clock64_register()"));
    CHECK_FALSE(translate_ptx(asm_of("mov.u32 %0, %globaltimer;", {{"=r", "t"}})).ok());
    CHECK_FALSE(translate_ptx(asm_of("mov.u32 %0, %nosuchreg;", {{"=r", "t"}})).ok());
  }
  SUBCASE("bfind, and its .shiftamt form (cdpAdvancedQuicksort's __qsflo)") {
    const PtxTranslation u = translate_ptx(asm_of("bfind.u32 %0, %1;", {{"=r", "d"}}, {{"r", "a"}}));
    REQUIRE(u.ok());
    CHECK(has(u.code, "::warpsim::ptx::bfind(static_cast<std::uint32_t>(warpsim_ptx_1), false)"));
    const PtxTranslation s64 =
        translate_ptx(asm_of("bfind.shiftamt.s64 %0, %1;", {{"=r", "d"}}, {{"l", "a"}}));
    REQUIRE(s64.ok());
    CHECK(has(s64.code, "::warpsim::ptx::bfind(static_cast<std::int64_t>(warpsim_ptx_1), true)"));
    CHECK_FALSE(translate_ptx(asm_of("bfind.b32 %0, %1;", {{"=r", "d"}}, {{"r", "a"}})).ok());
  }
  SUBCASE(".sync after the mode, as cub's radix sort writes its ballot (vote.ballot.sync.b32)") {
    const PtxTranslation t = translate_ptx(asm_of(
        "{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.ballot.sync.b32 %0, p, 0xffffffff; }",
        {{"=r", "m"}}, {{"r", "x"}}));
    REQUIRE(t.ok());
    CHECK(has(t.code, "::warpsim::ptx::vote_ballot(warpsim_ptx_r_p, "));
    CHECK_FALSE(translate_ptx(asm_of("vote.ballot.b32 %0, p;", {{"=r", "m"}})).ok());
  }
  SUBCASE("vabsdiff4's reduction form (stereoDisparity's __usad4)") {
    const PtxTranslation t = translate_ptx(asm_of("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;",
                                                  {{"=r", "d"}}, {{"r", "a"}, {"r", "b"}, {"r", "c"}}));
    REQUIRE(t.ok());
    CHECK(has(t.code, "::warpsim::ptx::vabsdiff4_add_u32(warpsim_ptx_1, warpsim_ptx_2, "
                      "warpsim_ptx_3)"));
  }
}

TEST_CASE("ld and st with cache hints are plain loads and stores of each element's address") {
  const PtxTranslation v4 = translate_ptx(asm_of("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];",
                                                 {{"=r", "r.x"}, {"=r", "r.y"}, {"=r", "r.z"}, {"=r", "r.w"}},
                                                 {{"l", "ptr"}}));
  REQUIRE(v4.ok());
  CHECK(has(v4.code, "::warpsim::ptx::load<::warpsim::ptx::u32>(warpsim_ptx_address + 3 * 4)"));
  // An 8-bit load into a 16-bit register, zero-extended; cub's .reg .u8 is held in 16 bits.
  const PtxTranslation byte = translate_ptx(asm_of(
      "{ .reg .u8 datum; ld.cg.u8 datum, [%1]; cvt.u16.u8 %0, datum; }", {{"=h", "v"}}, {{"l", "p"}}));
  REQUIRE(byte.ok());
  CHECK(has(byte.code, "warpsim_ptx_r_datum = ::warpsim::ptx::widen<std::uint16_t, ::warpsim::ptx::u8>("
                       "::warpsim::ptx::load<::warpsim::ptx::u8>(warpsim_ptx_address + 0 * 1));"));
  const PtxTranslation store = translate_ptx(
      asm_of("st.wt.v2.f64 [%0+16], {%1, %2};", {}, {{"l", "p"}, {"d", "a"}, {"d", "b"}}));
  REQUIRE(store.ok());
  CHECK(has(store.code, "::warpsim::ptx::store<::warpsim::ptx::f64>(warpsim_ptx_address + 1 * 8, "));
  CHECK(has(store.code, "+ static_cast<std::uint64_t>(0x10ULL)"));
}

TEST_CASE("what warpsim does not run is named with its reason, never translated to something else") {
  struct Case {
    const char* ptx;
    std::vector<AsmOperand> outputs, inputs;
    const char* instruction;
    const char* reason;
  };
  const Case cases[] = {
      {"add.u32 %0, %1, 1;", {{"=r", "d"}}, {{"l", "p"}}, "add.u32 %0, %1, 1",
       "%1 (\"l\") is 64-bit where 32-bit operand is needed"},
      {"add.u64 %0, %1, 1;", {{"=r", "d"}}, {{"l", "p"}}, "add.u64 %0, %1, 1",
       "%0 (\"=r\") is 32-bit where 64-bit destination is needed"},
      {"mov.u32 %1, %0;", {{"=r", "d"}}, {{"r", "s"}}, "mov.u32 %1, %0", "it writes %1 (\"r\"), an input"},
      {"{ mov.u32 %0, q; }", {{"=r", "d"}}, {}, "mov.u32 %0, q", "register q is not declared"},
      {"{ .reg .pred p; setp.lo.s32 p, %1, 0; }", {}, {{"r", "x"}}, "setp.lo.s32 p, %1, 0",
       "comparison .lo is not valid for .s32"},
      {"setp.eq.ftz.f32 %0, %1, %2;", {{"=r", "d"}}, {{"f", "a"}, {"f", "b"}}, "setp.eq.ftz.f32 %0, %1, %2",
       ".ftz (subnormals flushed to zero) is not run"},
      {"cvt.rn.relu.f16.f32 %0, %1;", {{"=h", "h"}}, {{"f", "x"}}, "cvt.rn.relu.f16.f32 %0, %1",
       "a modifier warpsim does not run (.relu, .satfinite, ...)"},
      {"cvt.f16.f32 %0, %1;", {{"=h", "h"}}, {{"f", "x"}}, "cvt.f16.f32 %0, %1",
       "this conversion needs .rn, .rz, .rm or .rp"},
      {"shfl.down.b32 %0, %1, 1, 31;", {{"=r", "d"}}, {{"r", "v"}}, "shfl.down.b32 %0, %1, 1, 31",
       "shfl without .sync is not valid on sm_70 and later; shfl.sync.MODE.b32 runs"},
      {"{ .reg .pred p; @p bra DONE; DONE: }", {}, {}, "@p bra DONE", "no such instruction in the set warpsim runs"},
      {"mov.u32 %0, %%nsmid;", {{"=r", "c"}}, {}, "mov.u32 %0, %%nsmid", "special register %nsmid is not run"},
      {"mov.u32 %0, %%clock64;", {{"=r", "c"}}, {}, "mov.u32 %0, %%clock64", "%clock64 is read with a 64-bit move"},
      {"mov.u32 %0, %3;", {{"=r", "d"}}, {}, "mov.u32 %0, %3", "operand %3 is not among the asm's 1 operands"},
      {"mov.u32 %0, 1;", {{"=q", "d"}}, {}, "mov.u32 %0, 1;",
       "output constraint \"=q\" is not one of =h, =r, =f, =l, =d (or +...)"},
      {"{ mov.u32 %0, 1;", {{"=r", "d"}}, {}, "{", "a '{' is not closed"},
      {"ld.shared.u32 %0, [%1];", {{"=r", "d"}}, {{"r", "a"}}, "ld.shared.u32 %0, [%1]",
       "only generic and .global addresses with cache hints are run for ld (not .shared)"},
      {"ld.relaxed.gpu.u32 %0, [%1];", {{"=r", "d"}}, {{"l", "p"}}, "ld.relaxed.gpu.u32 %0, [%1]",
       "only generic and .global addresses with cache hints are run for ld (not .relaxed)"},
      {"st.cg.u32 [%0], %1;", {}, {{"r", "p"}, {"r", "v"}}, "st.cg.u32 [%0], %1",
       "%0 (\"r\") is 32-bit where 64-bit operand is needed"},
      {"ld.cg.v4.u32 {%0, %1}, [%2];", {{"=r", "a"}, {"=r", "b"}}, {{"l", "p"}},
       "ld.cg.v4.u32 {%0, %1}, [%2]", "the vector's length is not its type's"},
      {"ld.cg.f32 %0, [%1];", {{"=l", "d"}}, {{"l", "p"}}, "ld.cg.f32 %0, [%1]", "%0 is not 32-bit for .f32"},
      {"ld.cg.u32 %0, %1;", {{"=r", "d"}}, {{"l", "p"}}, "ld.cg.u32 %0, %1",
       "the address %1 is not of the form [a] or [a+offset]"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.ptx);
    const PtxTranslation t = translate_ptx(asm_of(c.ptx, c.outputs, c.inputs));
    CHECK_FALSE(t.ok());
    CHECK(t.instruction == c.instruction);
    CHECK(t.reason == c.reason);
    CHECK(t.code.empty());
  }
}

TEST_CASE("approximate f32 math (flashinfer's math.cuh) and griddepcontrol are translated") {
  const PtxTranslation rsqrt =
      translate_ptx(asm_of("rsqrt.approx.ftz.f32 %0, %1;", {{"=f", "y"}}, {{"f", "x"}}));
  REQUIRE_MESSAGE(rsqrt.ok(), rsqrt.reason);
  CHECK(has(rsqrt.code, "approx_f32(::warpsim::ptx::Approx::rsqrt, true,"));
  const PtxTranslation ex2 = translate_ptx(asm_of("ex2.approx.f32 %0, %1;", {{"=f", "y"}}, {{"f", "x"}}));
  REQUIRE_MESSAGE(ex2.ok(), ex2.reason);
  CHECK(has(ex2.code, "Approx::ex2, false,"));
  for (const char* ptx : {"griddepcontrol.wait;", "griddepcontrol.launch_dependents;"}) {
    CAPTURE(ptx);
    const PtxTranslation pdl = translate_ptx(asm_of(ptx, {}));
    CHECK_MESSAGE(pdl.ok(), pdl.reason);
  }
  // Still named: the f16 forms, another modifier, a wrong type.
  const PtxTranslation half = translate_ptx(asm_of("ex2.approx.f16 %0, %1;", {{"=h", "y"}}, {{"h", "x"}}));
  CHECK(half.reason == "type .f16 is not run for ex2");
  const PtxTranslation full = translate_ptx(asm_of("sqrt.rn.f32 %0, %1;", {{"=f", "y"}}, {{"f", "x"}}));
  CHECK(full.reason == "only .sqrt.approx{.ftz}.f32 is run");
}
