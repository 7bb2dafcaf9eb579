#!/usr/bin/python3
"""Quantized ONNX models (make_qdq_models.py) compiled by microaot and checked against onnxruntime.

  qdq_models_test.py --microaot PATH --target host|cortex-m4 --work DIR [--inputs N]

For each model, every int8/uint8 tensor of the network is exposed as a graph output and the model run by
microaot (on the target) and by onnxruntime (tests/onnx/ort_run.js). Each quantized layer is then checked in
isolation: the subgraph from its quantized inputs to its quantized output (one QDQ group or QOperator node)
is run by onnxruntime on microaot's own int8 inputs, and microaot's output must be within one quantization
step of it (fixed-point against onnxruntime's float requantization, docs/onnx.md). The model's own output is
compared end to end too: it must equal the exposed model's (on the host) and every value must be within one step
(of the output's scale) of onnxruntime's, one-step differences of early layers carried through the later ones.
Exit status 0 when every check holds; 1 otherwise.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_qdq_models  # noqa: E402

NUMPY = {TensorProto.INT8: np.int8, TensorProto.UINT8: np.uint8, TensorProto.FLOAT: np.float32}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f'failed: {" ".join(cmd)}\n{r.stdout}{r.stderr}')


def ort(model_path, out_dir, inputs):
    os.makedirs(out_dir, exist_ok=True)
    run(['node', os.path.join(HERE, 'ort_run.js'), model_path, out_dir] + inputs)


def quantized_tensors(model):
    """Names and ONNX types of the int8/uint8 values computed by the graph, in node order."""
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type for v in inferred.graph.value_info}
    inits = {t.name for t in model.graph.initializer}
    out = []
    for node in model.graph.node:
        for name in node.output:
            if name not in inits and types.get(name) in (TensorProto.INT8, TensorProto.UINT8):
                out.append((name, types[name]))
    return out


def exposed(model, tensors):
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for name, t in tensors:
        m.graph.output.append(helper.make_tensor_value_info(name, t, None))
    return m


def group_inputs(model, name, quantized):
    """The quantized values (or graph inputs) the group computing `name` reads."""
    producer = {o: n for n in model.graph.node for o in n.output}
    inits = {t.name for t in model.graph.initializer}
    graph_inputs = {i.name for i in model.graph.input}
    found, stack, seen = [], [name], set()
    first = True
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if not first and (v in quantized or v in graph_inputs):
            found.append(v)
            continue
        first = False
        for i in producer[v].input:
            if i and i not in inits:
                stack.append(i)
    return sorted(found)


def group_op(model, producer, layer):
    """The operator a quantized tensor's group computes: the QOperator node, or the float op under the Q."""
    node = producer[layer]
    if node.op_type == 'QuantizeLinear' and node.input[0] in producer:
        node = producer[node.input[0]]
    if node.op_type == 'Relu' and producer.get(node.input[0]) and producer[node.input[0]].op_type != 'DequantizeLinear':
        node = producer[node.input[0]]  # a Relu fused into the op before it
    return node.op_type


def output_scale(model):
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    last = [n for n in model.graph.node if n.op_type == 'DequantizeLinear'][-1]
    return float(inits[last.input[1]])


def check_kernels(args, name, model_path, work):
    """On a Cortex-M target, every int8 CONV_2D of the model takes a packed DSP kernel (network_info.txt)."""
    lib = os.path.join(work, 'lib')
    run([args.microaot, 'compile', model_path, '--target', args.target, '-o', lib, '--force'])
    rows = [line.split() for line in open(os.path.join(lib, 'network_info.txt')) if line[:1].isdigit()]
    convs = [r for r in rows if len(r) > 4 and r[2] == 'CONV_2D']
    bad = [r[3] for r in convs if r[4] != 'dsp-packed']
    if bad:
        print(f'{name}: CONV_2D layers without a packed DSP kernel: {bad}')
    return len(bad)


def check_model(args, name, model, inputs):
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    tensors = quantized_tensors(model)
    qnames = {n for n, _ in tensors}
    types = dict(tensors)
    debug = exposed(model, tensors)
    debug_path = os.path.join(work, 'exposed.onnx')
    onnx.save(debug, debug_path)
    model_path = os.path.join(args.work, name + '.onnx')
    failures, layer_values, layer_off = 0, 0, 0
    e2e_values, e2e_off, e2e_max = 0, 0, 0
    scale = output_scale(model)
    producer = {o: n for n in model.graph.node for o in n.output}
    subgraphs = {}
    for layer, _ in tensors:
        ins = group_inputs(model, layer, qnames)
        sub_path = os.path.join(work, f'layer_{layer}.onnx')
        onnx.utils.extract_model(model_path, sub_path, ins, [layer])
        subgraphs[layer] = (ins, sub_path)
    per_op = {}
    failures += check_kernels(args, name, model_path, work) if args.target != 'host' else 0
    for k, inp in enumerate(inputs):
        mine = os.path.join(work, f'microaot{k}')
        run([args.microaot, 'run', debug_path, '--target', args.target, '--input', inp, '--output-dir', mine, '--force'])
        got = np.fromfile(os.path.join(mine, 'output0.bin'), np.float32)
        if args.target == 'host':  # the model itself computes what its exposed twin does (once: QEMU is slow)
            plain = os.path.join(work, f'plain{k}')
            run([args.microaot, 'run', model_path, '--input', inp, '--output-dir', plain, '--force'])
            if not np.array_equal(got, np.fromfile(os.path.join(plain, 'output0.bin'), np.float32)):
                print(f'{name}: input {k}: the model and its exposed twin differ')
                failures += 1
        ref_dir = os.path.join(work, f'ort{k}')
        ort(model_path, ref_dir, [inp])
        d = np.round(np.abs(got - np.fromfile(os.path.join(ref_dir, 'output0.bin'), np.float32)) / scale)
        e2e_values += d.size
        e2e_off += int((d > 0).sum())
        e2e_max = max(e2e_max, int(d.max()))
        if d.max() > 1:
            print(f'{name}: input {k}: the model output is {int(d.max())} steps from onnxruntime')
            failures += 1
        values = {n: np.fromfile(os.path.join(mine, f'output{i + 1}.bin'), NUMPY[t]) for i, (n, t) in enumerate(tensors)}
        values[model.graph.input[0].name] = np.fromfile(inp, np.float32)
        for layer, t in tensors:
            ins, sub_path = subgraphs[layer]
            files = []
            for i in ins:
                f = os.path.join(work, f'in{k}_{i}.bin')
                values[i].tofile(f)
                files.append(f)
            out = os.path.join(work, f'ort{k}_{layer}')
            ort(sub_path, out, files)
            want = np.fromfile(os.path.join(out, 'output0.bin'), NUMPY[t]).astype(np.int32)
            diff = np.abs(values[layer].astype(np.int32) - want)
            layer_values += diff.size
            layer_off += int((diff > 0).sum())
            op = group_op(model, producer, layer)
            seen, off = per_op.get(op, (0, 0))
            per_op[op] = (seen + diff.size, off + int((diff > 0).sum()))
            if diff.max() > 1:
                print(f'{name}: input {k}: layer {layer} is {diff.max()} steps from onnxruntime')
                failures += 1
    print(f'{name} on {args.target}: {len(tensors)} quantized tensors x {len(inputs)} inputs: '
          f'{layer_off} of {layer_values} layer values ({100.0 * layer_off / layer_values:.2f}%) one step from '
          f'onnxruntime on the same int8 inputs; model output: {e2e_off} of {e2e_values} values off, '
          f'at most {e2e_max} steps')
    print('  one step off, by layer: ' + ', '.join(f'{op} {off}/{n}' for op, (n, off) in per_op.items()))
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--microaot', required=True)
    p.add_argument('--target', default='host')
    p.add_argument('--work', required=True)
    p.add_argument('--inputs', type=int, default=make_qdq_models.INPUTS)
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    sys.argv = [sys.argv[0], args.work]
    make_qdq_models.main()
    inputs = [os.path.join(args.work, f'input{k}.bin') for k in range(args.inputs)]
    failures = 0
    for name in ('qdq_s8', 'qdq_u8', 'qop_u8', 'qop_contrib_u8', 'qdq_ops_s8'):
        failures += check_model(args, name, onnx.load(os.path.join(args.work, name + '.onnx')), inputs)
    if failures:
        sys.exit(f'{failures} checks failed')


if __name__ == '__main__':
    main()
