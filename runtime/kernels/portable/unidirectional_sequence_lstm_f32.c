/* UNIDIRECTIONAL_SEQUENCE_LSTM float32: TFLM's float arithmetic (reference fully connected, logistic with its
 * cut-offs, tanhf), every product and sum clamped to the finite range as its activation-free kernels do. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/lstm.h"
#include "microaot/kernels/sigmoid.h"

#define MICROAOT_DTYPE f32
#define MICROAOT_FN microaot_unidirectional_sequence_lstm_f32
#define MICROAOT_CELL float

static float lstm_finite(float x) { return microaot_clamp_f32(x, -FLT_MAX, FLT_MAX); }

static void lstm_fc(const microaot_lstm_params_f32* p, int fc, const float* x, int32_t rows, int32_t depth,
                    const float* weights, const float* bias, float* out) {
  const int32_t units = p->state_size;
  int32_t r, u, d;
  (void)fc;
  for (r = 0; r < rows; ++r) {
    const float* in_row = x + (size_t)r * (size_t)depth;
    for (u = 0; u < units; ++u) {
      const float* w_row = weights + (size_t)u * (size_t)depth;
      float total = 0.0f;
      for (d = 0; d < depth; ++d) total += in_row[d] * w_row[d];
      out[(size_t)r * (size_t)units + (size_t)u] = lstm_finite(total + bias[u]);
    }
  }
}

static void lstm_add(float* a, const float* b, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) a[i] += b[i];
}

static void lstm_activate(const microaot_lstm_params_f32* p, int is_tanh, float* data, size_t n) {
  size_t i;
  (void)p;
  for (i = 0; i < n; ++i) data[i] = is_tanh ? tanhf(data[i]) : microaot_logistic_f32_element(data[i]);
}

static void lstm_update_cell(const microaot_lstm_params_f32* p, const float* f, float* i, const float* g,
                             float* cell, size_t n) {
  size_t k;
  for (k = 0; k < n; ++k) {
    cell[k] = lstm_finite(f[k] * cell[k]);
    i[k] = lstm_finite(i[k] * g[k]);
  }
  lstm_add(cell, i, n);
  if (p->cell_clip > 0.0f) {
    for (k = 0; k < n; ++k) cell[k] = microaot_clamp_f32(cell[k], -p->cell_clip, p->cell_clip);
  }
}

static void lstm_update_hidden(const microaot_lstm_params_f32* p, const float* o, const float* cell, float* tmp,
                               float* hidden, size_t n) {
  size_t k;
  (void)p;
  for (k = 0; k < n; ++k) tmp[k] = tanhf(cell[k]);
  for (k = 0; k < n; ++k) hidden[k] = lstm_finite(tmp[k] * o[k]);
}

#include "microaot/internal/templates/lstm.h"
