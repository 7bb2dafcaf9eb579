#!/usr/bin/env bash
# Runs the ONNX node-test conformance test (tests/e2e/onnx_conformance_test.cpp, label onnx) and writes its
# per-operator pass / refused / wrong table into docs/onnx.md between the conformance markers.
# Needs build/ with microaot_onnx_tests (scripts/setup.sh) and libonnx-testdata.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
(cd build/tests && ./microaot_onnx_tests > /dev/null)
table=build/tests/onnx_conformance.md
python3 - "$root/docs/onnx.md" "$root/$table" <<'PY'
import sys
doc_path, table_path = sys.argv[1], sys.argv[2]
doc = open(doc_path).read()
begin, end = "<!-- conformance:begin -->\n", "<!-- conformance:end -->"
head, rest = doc.split(begin, 1)
tail = rest.split(end, 1)[1]
open(doc_path, "w").write(head + begin + open(table_path).read() + end + tail)
PY
echo "docs/onnx.md: conformance table updated"
