// What main.cpp, kernels.cu and checksum.c share. A header of the same name in a -I folder must
// not be the one found: "..." includes look in the including file's own folder first.
#ifndef MULTI_FILE_H
#define MULTI_FILE_H

#define MULTI_FILE_HEADER_FROM_OWN_FOLDER 1

#ifdef __cplusplus
// kernels.cu: out[i] = in[i] * its own scale_of(); returns that scale.
int scale_on_device(const float* in, float* out, int n);
extern "C" {
#endif

// checksum.c: the sum of values[0..n) times (index + 1), in double.
double weighted_checksum(const float* values, int n);

#ifdef __cplusplus
}
#endif

#endif
