#!/usr/bin/env python3
"""Runs TFLite Micro's per-layer integration tests (tensorflow/lite/micro/integration_tests: single-op models
cut from real networks, with input and golden CSV files) through `microaot run` and compares the outputs
exactly. A measurement on models beyond ../shared, not a test: it needs a tflite-micro git repository.
    scripts/tflm_integration.py TFLITE_MICRO_GIT [BUILD]    (BUILD defaults to build/)
Prints, per folder, how many models match exactly, differ (with the largest difference) or are refused."""
import os
import struct
import subprocess
import sys
import tempfile

ROOT = "tensorflow/lite/micro/integration_tests"
FORMATS = {"int8": "b", "int16": "h", "int32": "i"}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, check=True).stdout


def csv_values(repo, path):
    text = git(repo, "show", "HEAD:" + path).decode()
    return [int(v) for v in text.replace("\n", ",").split(",") if v.strip()]


def csv_format(path):
    return FORMATS[path.rsplit("_", 1)[1][: -len(".csv")]]


def run_model(repo, files, model, microaot, runtime, work):
    """'exact', 'differs (N of M, at most D)' or 'refused: <last error line>'."""
    stem = model[: -len(".tflite")]
    with open(os.path.join(work, "model.tflite"), "wb") as f:
        f.write(git(repo, "show", "HEAD:" + model))
    inputs = []
    for i, path in enumerate(sorted(p for p in files if p.startswith(stem + "_input"))):
        values = csv_values(repo, path)
        inputs.append(os.path.join(work, "in%d.bin" % i))
        with open(inputs[-1], "wb") as f:
            f.write(struct.pack("<%d%s" % (len(values), csv_format(path)), *values))
    out = os.path.join(work, "out")
    result = subprocess.run([microaot, "run", os.path.join(work, "model.tflite"), "--input", *inputs,
                             "--output-dir", out, "--runtime-lib", runtime], capture_output=True, text=True)
    if result.returncode != 0:
        return "refused: " + (result.stderr.strip().splitlines() or ["?"])[-1]
    golden_path = next(p for p in files if p.startswith(stem + "_golden"))
    golden, fmt = csv_values(repo, golden_path), csv_format(golden_path)
    with open(os.path.join(out, "output0.bin"), "rb") as f:
        data = f.read()
    got = struct.unpack("<%d%s" % (len(data) // struct.calcsize(fmt), fmt), data)
    diffs = [abs(a - b) for a, b in zip(got, golden)] + [len(got) != len(golden)]
    if not any(diffs):
        return "exact"
    return "differs (%d of %d, at most %d)" % (sum(d > 0 for d in diffs), len(golden), max(diffs))


def main():
    repo = sys.argv[1]
    build = sys.argv[2] if len(sys.argv) > 2 else "build"
    microaot = os.path.abspath(os.path.join(build, "microaot"))
    runtime = os.path.abspath(os.path.join(build, "runtime", "libmicroaot_runtime.a"))
    files = git(repo, "ls-tree", "-r", "--name-only", "HEAD", ROOT).decode().split()
    by_folder = {}
    for model in sorted(p for p in files if p.endswith(".tflite")):
        with tempfile.TemporaryDirectory() as work:
            status = run_model(repo, files, model, microaot, runtime, work)
        by_folder.setdefault(os.path.dirname(model)[len(ROOT) + 1:], []).append((os.path.basename(model), status))
    for folder, rows in by_folder.items():
        exact = sum(status == "exact" for _, status in rows)
        print("%s: %d of %d exact" % (folder, exact, len(rows)))
        for name, status in rows:
            if status != "exact":
                print("  %s: %s" % (name, status))


if __name__ == "__main__":
    main()
