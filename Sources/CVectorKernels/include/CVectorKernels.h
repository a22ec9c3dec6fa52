#ifndef SWIFTVISION_VECTOR_KERNELS_H
#define SWIFTVISION_VECTOR_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// Scores `rows` int8 vectors of `dimension` values, one after another at `matrix`, against the int8 `query`:
/// `scores[i]` is the dot product of the query and row i. Compiled for AVX2 and for plain x86-64, the
/// processor choosing at load time.
void sv_int8_dot_rows(const int8_t *query, const int8_t *matrix, size_t dimension, size_t rows, int32_t *scores);

#endif
