// The suite's sizes, included by bench_harness.cuh as "bench_config.h" (from its own folder).
#pragma once
#define BENCH_BLOCK 128
#define BENCH_MODULUS 7
