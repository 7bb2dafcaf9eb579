#!/usr/bin/env python3
"""Calibrates the fused bands' cost model (compiler/memory/band_cost.def) on the emulated Cortex-M4.

For each build (a model at the default plan or a --ram-budget) it runs `microaot compile` (report.json: the
chains and, per layer, what the cost model counts) and `microaot bench --target cortex-m4 --json`, and the
same model with --tiling off. A chain's measured extra is the per-op instructions of its steps (the chain runs
in its first step) minus those of the untiled build's same steps; what the build spends beyond that is the
variant switches outside its chains (report.json's band_variant_switches: steps the plan with chains runs in
place and the untiled plan does not, or the reverse), one more row per build, priced by the same in-place
constant as a chain's credit. It then fits the family constants (one least-squares fit over every row of every
build, constants >= 0, each residual divided by the square root of its model's instructions: between absolute
errors, which only MobileNetV2 would steer, and errors relative to the model, which only VWW would) and prints
estimate against measurement per row and per build (the total: chains and switches), the error in sample and
held out (each model left out of the fit in turn), and the fitted .def lines.

  scripts/calibrate_bands.py --microaot build/microaot --models ../shared/models \\
      --mnv2 /tmp/mnv2_224.tflite --work /tmp/cal

MobileNetV2-224 runs at --optimize balanced on 150,528 pseudo-random bytes (random.Random(34)); the shared
models on their vector 0. Results are kept in --work: a build already there is not run again (--again: run
all). Without --mnv2 MobileNetV2 is left out (its M4 runs take a minute or more each); --only picks models.
Only Debian's python3 is needed.
"""
import argparse
import json
import os
import random
import subprocess
import sys

# The builds: (name, model key, extra flags). None for the budget: the default plan.
BUDGETS = {
    "vww": [None, 44000, 40000, 36000, 33177, 31000],
    "ic": [None, 30000],
    "kws": [None],
    "mnv2": [None, 320000],
}
FAMILIES = ["conv", "pointwise", "depthwise", "pool", "add", "layout"]
# The constants per family, in band_cost.def's order and units (thousandths where named _milli).
TERMS = ["call", "call_per_channel", "halo_milli", "moved_milli", "in_place_milli"]
# Terms fitted as one constant for every family: a move is a memmove whatever wrote the rows (per family, one
# chain's residual would set a family's figure).
SHARED = {"moved_milli"}
# What a family the builds do not reach keeps: the uncalibrated model's figures.
PRIOR = [400, 0, 3000, 1000, 0]


def model_paths(args):
    m = args.models
    out = {
        "vww": (f"{m}/vww_mobilenet_int8/model.tflite", f"{m}/vww_mobilenet_int8/vectors/0.input0.bin", []),
        "ic": (f"{m}/ic_resnet8_int8/model.tflite", f"{m}/ic_resnet8_int8/vectors/0.input0.bin", []),
        "kws": (f"{m}/kws_dscnn_int8/model.tflite", f"{m}/kws_dscnn_int8/vectors/0.input0.bin", []),
    }
    if args.mnv2:
        data = os.path.join(args.work, "mnv2_input.bin")
        if not os.path.exists(data):
            rng = random.Random(34)
            with open(data, "wb") as f:
                f.write(bytes(rng.randrange(256) for _ in range(1 * 3 * 224 * 224)))
        out["mnv2"] = (args.mnv2, data, ["--optimize", "balanced"])
    return out


def run(cmd, out_path):
    print("  " + " ".join(cmd), file=sys.stderr, flush=True)
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        sys.exit(f"failed ({res.returncode}): {' '.join(cmd)}\n{res.stderr}")
    if out_path:
        with open(out_path, "w") as f:
            f.write(res.stdout)


def build(args, key, budget, paths):
    """Compiles and benches one build (budget None: default, 'off': --tiling off); returns (report, bench)."""
    model, data, extra = paths[key]
    tag = f"{key}_{'default' if budget is None else budget}"
    flags = list(extra)
    if budget == "off":
        flags += ["--tiling", "off"]
    elif budget is not None:
        flags += ["--ram-budget", str(budget)]
    out_dir = os.path.join(args.work, tag)
    bench_path = out_dir + ".bench.json"
    if args.again or not os.path.exists(bench_path):
        if budget != "off":
            run([args.microaot, "compile", "--target", "cortex-m4", model, "-o", out_dir] + flags, None)
        run([args.microaot, "bench", "--target", "cortex-m4", model, "--input", data, "--json"] + flags, bench_path)
    report = {}
    if budget != "off":
        with open(os.path.join(out_dir, "report.json")) as f:
            report = json.load(f)
    with open(bench_path) as f:
        bench = json.load(f)
    return tag, report, bench


def per_step(bench):
    steps = {}
    for op in bench["per_op"]:
        steps[op["step"]] = steps.get(op["step"], 0) + op["instructions"]
    return steps


def features(chain):
    """The chain's cost-model features, keyed (family, term), in the constants' units (a constant's
    contribution is value * feature / (1000 for _milli terms))."""
    x = {}
    for layer in chain["layers"]:
        fam = layer["family"]
        extra_calls = max(0, layer["calls"] - 1)
        for term, value in (("call", extra_calls), ("call_per_channel", extra_calls * layer["channels"]),
                            ("halo_milli", layer["halo_bytes"] / 1000.0),
                            ("moved_milli", layer["moved_bytes"] / 1000.0),
                            ("in_place_milli", -layer["input_bytes"] / 1000.0 if layer["in_place_untiled"] else 0)):
            key = ("*", term) if term in SHARED else (fam, term)
            if value:
                x[key] = x.get(key, 0) + value
    return x


def solve(a, b):
    """Least squares of a x = b by the normal equations (Gaussian elimination, a small ridge for columns the
    data leaves free)."""
    n = len(a[0])
    m = [[sum(r[i] * r[j] for r in a) for j in range(n)] + [sum(r[i] * y for r, y in zip(a, b))] for i in range(n)]
    for i in range(n):
        m[i][i] += 1e-9 * (m[i][i] + 1)
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(m[k][i]))
        m[i], m[p] = m[p], m[i]
        for k in range(n):
            if k != i and m[i][i] != 0:
                f = m[k][i] / m[i][i]
                m[k] = [u - f * v for u, v in zip(m[k], m[i])]
    return [m[i][n] / m[i][i] if m[i][i] else 0 for i in range(n)]


def fit(rows, columns):
    """Non-negative least squares by elimination: columns fitting negative are dropped and the rest refitted."""
    active = list(columns)
    while True:
        a = [[r["w"] * r["x"].get(c, 0) for c in active] for r in rows]
        b = [r["w"] * r["measured"] for r in rows]
        coef = solve(a, b) if active else []
        worst = min(range(len(active)), key=lambda i: coef[i], default=None)
        if worst is None or coef[worst] >= 0:
            return dict(zip(active, coef))
        del active[worst]


def estimate(x, constants):
    return sum(v * constants.get(k, 0) for k, v in x.items())


def r_squared(pairs):
    if len(pairs) < 2:
        return float("nan")
    mean = sum(m for _, m in pairs) / len(pairs)
    total = sum((m - mean) ** 2 for _, m in pairs)
    residual = sum((m - e) ** 2 for e, m in pairs)
    return 1 - residual / total if total else float("nan")


def outside_row(tag, key, report, measured, weight):
    """The build's variant switches outside its chains (report.json's band_variant_switches) as one row: their
    in-place feature (+ input bytes for a switch to the in-place variant, - back to plain), measured as the
    build's extra instructions outside its chains."""
    x = {}
    for v in report.get("band_variant_switches", []):
        k = (v["family"], "in_place_milli")
        x[k] = x.get(k, 0) + (1 if v["to_in_place"] else -1) * v["input_bytes"] / 1000.0
    return {"build": tag, "model": key, "chain": "outside", "x": {k: v for k, v in x.items() if v},
            "measured": measured, "w": weight,
            "compiler": sum(v["estimated_extra_instructions"] for v in report.get("band_variant_switches", []))}


def build_estimate(b, constants):
    """A build's total extra as the constants predict it: its chains and the switches outside them."""
    return sum(estimate(r["x"], constants) for r in b["chains"] + [b["outside"]])


def total_error(builds, predict):
    """Mean absolute error of the builds' total extra, in instructions and relative to the untiled model."""
    errs = [(predict(b) - (b["bench"]["instructions"] - b["off"]["instructions"]), b["off"]["instructions"])
            for b in builds]
    return (sum(abs(e) for e, _ in errs) / len(errs), 100.0 * sum(abs(e) / n for e, n in errs) / len(errs))


def report_errors(rows, builds, constants, keys):
    """In-sample and held-out (each model left out of the fit in turn) error of the fitted model, per row and
    per build total, against the compiler's own estimate."""
    held, held_builds = [], {}
    for key in keys:
        others = [r for r in rows if r["model"] != key]
        k = fit(others, sorted({c for r in others for c in r["x"]})) if others else {}
        held += [(estimate(r["x"], k), r["measured"]) for r in rows if r["model"] == key]
        for b in builds:
            if b["model"] == key:
                held_builds[b["tag"]] = build_estimate(b, k)
    print("\nerror: R^2 per row (chains and outside switches); per build total extra, mean |estimated - measured|"
          " (instructions; % of the untiled model's)")
    for name, pairs, predict in (
            ("compiler", [(r["compiler"], r["measured"]) for r in rows], lambda b: b["compiler"]),
            ("fitted, in sample", [(estimate(r["x"], constants), r["measured"]) for r in rows],
             lambda b: build_estimate(b, constants)),
            ("fitted, held out", held, lambda b: held_builds[b["tag"]])):
        abs_err, rel = total_error(builds, predict)
        print(f"  {name:<18} R^2 {r_squared(pairs):.3f}   per build {abs_err:>12,.0f}  {rel:.2f}%")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--microaot", default="build/microaot")
    p.add_argument("--models", default="../shared/models", help="the shared models' directory")
    p.add_argument("--mnv2", help="mobilenet_v2_quantized_1x3x224x224.tflite (tflite-micro's third_party/xtensa)")
    p.add_argument("--work", default="/tmp/calibrate_bands")
    p.add_argument("--again", action="store_true", help="run every build again")
    p.add_argument("--only", help="comma-separated model keys (vww, ic, kws, mnv2)")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    paths = model_paths(args)
    keys = [k for k in BUDGETS if k in paths and (not args.only or k in args.only.split(","))]

    rows, builds = [], []
    for key in keys:
        _, _, off = build(args, key, "off", paths)
        untiled = per_step(off)
        for budget in BUDGETS[key]:
            tag, report, bench = build(args, key, budget, paths)
            tiled = per_step(bench)
            weight = off["instructions"] ** -0.5
            chains = []
            for c in report.get("bands", []):
                steps = range(c["first_step"], c["last_step"] + 1)
                measured = sum(tiled.get(s, 0) for s in steps) - sum(untiled.get(s, 0) for s in steps)
                chains.append({"build": tag, "model": key, "chain": f"{c['first_step']}-{c['last_step']}/{c['band_rows']}"
                               + ("e" if c["every_layer"] else ""), "x": features(c), "measured": measured,
                               "compiler": c["estimated_extra_instructions"], "w": weight})
            extra = bench["instructions"] - off["instructions"]
            outside = outside_row(tag, key, report, extra - sum(r["measured"] for r in chains), weight)
            rows += chains + ([outside] if outside["x"] else [])
            builds.append({"tag": tag, "model": key, "off": off, "bench": bench, "chains": chains,
                           "outside": outside, "compiler": report.get("bands_estimated_extra_instructions", 0)})

    columns = sorted({k for r in rows for k in r["x"]})
    constants = fit(rows, columns) if rows else {}

    print("per chain (and per build the variant switches outside its chains): measured extra, the compiler's"
          " estimate, the fitted model's estimate (instructions)")
    print(f"{'build':<16} {'chain':<10} {'measured':>12} {'compiler':>12} {'fitted':>12}")
    for r in rows:
        print(f"{r['build']:<16} {r['chain']:<10} {r['measured']:>12,} {r['compiler']:>12,} "
              f"{round(estimate(r['x'], constants)):>12,}")

    print("\nper build: RAM (ram_bytes), stack, instructions, extra measured (total; in chains; outside: the"
          " variant switches), the total extra estimated (compiler; fitted)")
    print(f"{'build':<16} {'RAM B':>9} {'stack':>6} {'instructions':>13} {'measured':>11} {'in chains':>11} "
          f"{'outside':>10} {'compiler':>11} {'fitted':>11}  chains")
    for b in builds:
        bench, off = b["bench"], b["off"]
        measured = bench["instructions"] - off["instructions"]
        in_chains = sum(r["measured"] for r in b["chains"])
        print(f"{b['tag']:<16} {bench['ram_bytes']:>9,} {bench['stack_bytes']:>6} {bench['instructions']:>13,} "
              f"{measured:>+11,} {in_chains:>+11,} {measured - in_chains:>+10,} {b['compiler']:>+11,} "
              f"{round(build_estimate(b, constants)):>+11,}  "
              + " ".join(r["chain"] for r in b["chains"]) + ("" if bench.get("outputs_bit_exact") else "  NOT EXACT"))
    for key in keys:
        off = next(b["off"] for b in builds if b["model"] == key)
        print(f"{key}_off: RAM {off['ram_bytes']:,} B, stack {off['stack_bytes']}, {off['instructions']:,} instructions")
    report_errors(rows, builds, constants, keys)

    print("\nfitted constants, band_cost.def's lines (0 where the fit finds a term below 0 or the data does not"
          " reach it; a family no chain has keeps the uncalibrated figures):")
    reached = {k[0] for r in rows for k in r["x"]}
    for fam in FAMILIES:
        values = [constants.get(("*" if t in SHARED else fam, t), 0) for t in TERMS] if fam in reached else PRIOR
        vals = ", ".join(str(round(v)) for v in values)
        print(f"MICROAOT_BAND_FAMILY(k{fam.capitalize()}, \"{fam}\", {vals})")


if __name__ == "__main__":
    main()
