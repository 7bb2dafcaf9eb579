/* microaot_status_string: one line of text per status code, for logs and error messages. The texts are one
 * string, walked to the status's: no table of pointers, and short, since every firmware that logs links them
 * (microaot/status.h and docs/errors.md say more about each code). */
#include "microaot/status.h"

#include <stddef.h>

const char *microaot_status_string(microaot_status status) {
  /* In code order; the last is any other value's. */
  static const char texts[] =
      "ok\0"
      "null pointer\0"
      "bad index\0"
      "bad size\0"
      "bad state\0"
      "arena too small\0"
      "arena misaligned\0"
      "input not set\0"
      "arena clobbered by another context\0"
      "buffer overlap\0"
      "in progress\0"
      "value out of range\0"
      "bad model blob\0"
      "unsupported model blob\0"
      "model blob needs a kernel this firmware does not link\0"
      "unknown status";
  const size_t count = (size_t)MICROAOT_STATUS_MISSING_KERNEL + 1u;
  size_t skip = (size_t)status < count ? (size_t)status : count;
  const char *text = texts;
  for (; skip > 0u; ++text) {
    if (*text == '\0') --skip;
  }
  return text;
}
