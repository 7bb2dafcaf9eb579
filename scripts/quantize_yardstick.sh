#!/usr/bin/env bash
# Prints the yardstick of `microaot quantize` (issue 30, docs/quantize.md) as a Markdown table: for each
# shared float model and each --method (and 16x8, "default_int16"), calibrated on vectors 0-3 and evaluated
# on vectors 4-7 against the float model's outputs (TFLM's float goldens), microaot's model beside the
# converter's int8 twin:
# output SQNR, top-1 agreement (class outputs) and largest error. The measuring is the e2e test
# tests/e2e/quantize_test.cpp run over every model and method; it also fails a row that misses the yardstick.
# Needs build/ with the e2e tests (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
MICROAOT_QUANT_YARDSTICK=all build/tests/microaot_e2e_tests --gtest_filter='SharedFloatModels/QuantizeTest.*' \
  > "$log" 2>&1 || status=$?
echo "| model | method | SQNR dB microaot | SQNR dB converter | top-1 microaot | top-1 converter | max error microaot | max error converter |"
echo "|---|---|---|---|---|---|---|---|"
grep '^YARDSTICK ' "$log" | while read -r _ model method rest; do
  declare -A v=()
  for pair in $rest; do v[${pair%%=*}]=${pair#*=}; done
  top() { [ "${v[$1]}" = "0/0" ] && echo "-" || echo "${v[$1]}"; }
  echo "| $model | $method | ${v[microaot_sqnr]} | ${v[converter_sqnr]} | $(top microaot_top1) | $(top converter_top1) |" \
    "${v[microaot_max_err]} | ${v[converter_max_err]} |"
done
if [ "$status" -ne 0 ]; then
  grep -E '^\[  FAILED  \]|Failure|error' "$log" >&2 || true
  echo "quantize_yardstick: some case failed (exit $status)" >&2
fi
exit "$status"
