/* microaot_status_string: one line of text per status code, for logs and error messages. */
#include "microaot/status.h"

#include <stddef.h>

const char *microaot_status_string(microaot_status status) {
  static const char *const texts[] = {
      "ok",
      "null pointer",
      "bad index",
      "bad size",
      "bad state",
      "arena too small",
      "arena misaligned",
      "input not set",
      "arena clobbered by another context",
      "buffer overlaps the arena or another bound buffer",
      "in progress: operators left",
      "a value out of range in an operator's data (e.g. a gather index)",
      "bad model: not a model blob, or a corrupt one",
      "unsupported model: the blob needs a blob version, kernel or context size this firmware lacks",
  };
  const size_t index = (size_t)status;
  return index < sizeof texts / sizeof texts[0] ? texts[index] : "unknown status";
}
