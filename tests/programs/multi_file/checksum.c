/* Plain C, as a sample's mmio.c is: built as C (a C++ compiler would reject `new` as a name and
   malloc's void* into a double*). */
#include <stdlib.h>

#include "multi_file.h"

double weighted_checksum(const float* values, int n) {
  double* new = malloc(sizeof(double));
  double sum;
  int i;
  *new = 0.0;
  for (i = 0; i < n; ++i) *new += (double)values[i] * (i + 1);
  sum = *new;
  free(new);
  return sum;
}
