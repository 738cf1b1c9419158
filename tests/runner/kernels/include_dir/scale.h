// Found only through -I (tests/runner/kernels/include_dir).
#define SCALE_FROM_HEADER 10
