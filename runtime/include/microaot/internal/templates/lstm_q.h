/* The integer arithmetic of the UNIDIRECTIONAL_SEQUENCE_LSTM template (microaot/internal/templates/lstm.h), TFLM's
 * (lstm_eval.cc): 8x8 (int32 bias and accumulator) or 16x8 (int64), gates and cell state int16. The including
 * file defines MICROAOT_DTYPE (s8 or s16) and MICROAOT_CELL int16_t first. */
#include <stddef.h>

#include "microaot/fixedpoint.h"
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/lstm.h"
#include "microaot/kernels/sigmoid.h"

/* The accumulator requantized to Q3.12 (int16, zero point 0): the 32-bit or the 64-bit rounding, as the bias
 * type selects in TFLM's reference fully connected kernel. */
static int32_t lstm_requantize(int64_t acc, int32_t multiplier, int32_t shift) {
  if (sizeof(MICROAOT_BIAS) == sizeof(int32_t)) {
    return microaot_multiply_by_quantized_multiplier((int32_t)acc, multiplier, (int)shift);
  }
  return microaot_multiply_by_quantized_multiplier_s64(acc, multiplier, (int)shift);
}

static void lstm_fc(const microaot_lstm_params_q* p, int fc, const MICROAOT_T* x, int32_t rows, int32_t depth,
                    const int8_t* weights, const MICROAOT_BIAS* bias, int16_t* out) {
  const int32_t units = p->state_size;
  int32_t r, u, d;
  for (r = 0; r < rows; ++r) {
    const MICROAOT_T* in_row = x + (size_t)r * (size_t)depth;
    for (u = 0; u < units; ++u) {
      const int8_t* w_row = weights + (size_t)u * (size_t)depth;
      MICROAOT_BIAS acc = bias[u];
      for (d = 0; d < depth; ++d) acc += (MICROAOT_BIAS)((int32_t)w_row[d] * (int32_t)in_row[d]);
      out[(size_t)r * (size_t)units + (size_t)u] = (int16_t)microaot_clamp_s32(
          lstm_requantize((int64_t)acc, p->gate_multiplier[fc], p->gate_shift[fc]), INT16_MIN, INT16_MAX);
    }
  }
}

static void lstm_add(int16_t* a, const int16_t* b, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) a[i] = (int16_t)microaot_clamp_s32((int32_t)a[i] + (int32_t)b[i], INT16_MIN, INT16_MAX);
}

/* The int16 LOGISTIC/TANH element functions with the table and an input rescale. */
static microaot_sigmoid_params_s16 lstm_table_params(const microaot_lstm_params_q* p, int32_t multiplier,
                                                     int32_t shift) {
  microaot_sigmoid_params_s16 table;
  table.size = 0;
  table.input_multiplier = multiplier;
  table.input_shift = shift;
  table.sigmoid_table = p->sigmoid_table;
  return table;
}

/* Gates are Q3.12: TFLM's power-of-two case, multiplier 3 and no shift, for sigmoid and tanh alike. */
static void lstm_activate(const microaot_lstm_params_q* p, int is_tanh, int16_t* data, size_t n) {
  const microaot_sigmoid_params_s16 table = lstm_table_params(p, 3, 0);
  size_t i;
  for (i = 0; i < n; ++i) {
    data[i] = (int16_t)(is_tanh ? microaot_tanh_s16_element(&table, data[i]) : microaot_logistic_s16_element(&table, data[i]));
  }
}

/* TFLM's int16 MulElementwise: the product requantized, plus the zero point, clamped. */
static int32_t lstm_mul(int32_t a, int32_t b, int32_t multiplier, int32_t shift, int32_t zero_point, int32_t lo,
                        int32_t hi) {
  return microaot_clamp_s32(microaot_multiply_by_quantized_multiplier(a * b, multiplier, (int)shift) + zero_point, lo,
                            hi);
}

static void lstm_update_cell(const microaot_lstm_params_q* p, const int16_t* f, int16_t* i, const int16_t* g,
                             int16_t* cell, size_t n) {
  size_t k;
  for (k = 0; k < n; ++k) {
    cell[k] = (int16_t)lstm_mul(f[k], cell[k], p->forget_multiplier, p->forget_shift, 0, INT16_MIN, INT16_MAX);
    i[k] = (int16_t)lstm_mul(i[k], g[k], p->input_multiplier, p->input_shift, 0, INT16_MIN, INT16_MAX);
  }
  lstm_add(cell, i, n);
  if (p->cell_clip >= 0) {
    for (k = 0; k < n; ++k) cell[k] = (int16_t)microaot_clamp_s32(cell[k], -p->cell_clip, p->cell_clip);
  }
}

static void lstm_update_hidden(const microaot_lstm_params_q* p, const int16_t* o, const int16_t* cell, int16_t* tmp,
                               MICROAOT_T* hidden, size_t n) {
  const microaot_sigmoid_params_s16 table = lstm_table_params(p, p->cell_tanh_multiplier, p->cell_tanh_shift);
  size_t k;
  for (k = 0; k < n; ++k) tmp[k] = (int16_t)microaot_tanh_s16_element(&table, cell[k]);
  for (k = 0; k < n; ++k) {
    hidden[k] = (MICROAOT_T)lstm_mul(tmp[k], o[k], p->hidden_multiplier, p->hidden_shift, p->hidden_zero_point,
                                     p->hidden_min, p->hidden_max);
  }
}
