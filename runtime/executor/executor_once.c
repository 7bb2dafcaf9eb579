/* The microTVM entry's body for I/O in the arena (--interface-api c): init on the static arena, copy the
 * inputs in, run, copy the outputs out, destroy. Only folders of models with that interface get this file. */
#include "microaot/executor.h"

microaot_status microaot_run_once(microaot_context *ctx, const microaot_model *model, microaot_slot *slots,
                                  void *const *inputs, void *const *outputs) {
  microaot_status status;
  size_t i;
  if (inputs == NULL || outputs == NULL) return MICROAOT_STATUS_NULL_POINTER;
  status = microaot_init(ctx, model, slots, NULL, 0u);
  for (i = 0; status == MICROAOT_STATUS_OK && i < model->num_inputs; ++i) {
    status = microaot_set_input(ctx, i, inputs[i], model->inputs[i].size);
  }
  if (status == MICROAOT_STATUS_OK) status = microaot_run(ctx);
  for (i = 0; status == MICROAOT_STATUS_OK && i < model->num_outputs; ++i) {
    status = microaot_get_output(ctx, i, outputs[i], model->outputs[i].size);
  }
  if (ctx != NULL) (void)microaot_destroy(ctx);
  return status;
}
