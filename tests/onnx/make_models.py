#!/usr/bin/python3
"""Writes the real-model ONNX tests' models, the way PyTorch's exporter writes them, with fixed seeds.

  make_models.py OUT_DIR [--twin NAME=MODEL.tflite,INPUT.bin --schema tflite_schema.fbs]...

Writes OUT_DIR/NAME.onnx and OUT_DIR/NAME.input0.bin (raw little-endian float32) for each model, and
OUT_DIR/models.txt, one line per model: NAME and its input's shape (1x3x32x32). A --twin is a float
fully-connected .tflite rewritten as ONNX with its own weights (read with flatc, no TensorFlow), fed its
golden input: its build must cost what the .tflite's costs.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    """A graph under construction: nodes, initializers and unique names, PyTorch-style."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)
        self.nodes, self.inits, self.count = [], [], 0

    def name(self, base):
        self.count += 1
        return f"{base}_{self.count}"

    def init(self, base, array):
        name = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, inputs, n_out=1, **attrs):
        outs = [self.name(f"/{op}_output") for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=self.name(f"/{op}"), **attrs))
        return outs[0] if n_out == 1 else outs

    def constant(self, array):  # a Constant node, as the exporter writes shape and index operands
        out = self.name("/Constant_output")
        value = numpy_helper.from_array(np.asarray(array), out + "_value")
        self.nodes.append(helper.make_node("Constant", [], [out], name=self.name("/Constant"), value=value))
        return out

    def weight(self, shape, fan_in):
        return (self.rng.randn(*shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    def conv_bn_relu(self, x, cin, cout, k, stride=1, pad=0, group=1, relu=True, relu6=False):
        w = self.init("conv.weight", self.weight((cout, cin // group, k[0], k[1]), cin // group * k[0] * k[1]))
        b = self.init("conv.bias", (self.rng.randn(cout) * 0.1).astype(np.float32))
        y = self.node("Conv", [x, w, b], kernel_shape=list(k), strides=[stride, stride], pads=[pad] * 4,
                      group=group, dilations=[1, 1])
        bn = [self.init("bn.weight", self.rng.uniform(0.5, 1.5, cout).astype(np.float32)),
              self.init("bn.bias", (self.rng.randn(cout) * 0.1).astype(np.float32)),
              self.init("bn.running_mean", (self.rng.randn(cout) * 0.1).astype(np.float32)),
              self.init("bn.running_var", self.rng.uniform(0.5, 1.5, cout).astype(np.float32))]
        y = self.node("BatchNormalization", [y] + bn, epsilon=1e-5, momentum=0.9)
        if relu6:  # nn.ReLU6: Clip with its bounds as Constant inputs (opset 11 on)
            return self.node("Clip", [y, self.constant(np.array(0.0, np.float32)), self.constant(np.array(6.0, np.float32))])
        return self.node("Relu", [y]) if relu else y

    def linear(self, x, fin, fout, w=None, b=None):  # nn.Linear: Gemm with transB
        w = self.weight((fout, fin), fin) if w is None else w
        b = (self.rng.randn(fout) * 0.1).astype(np.float32) if b is None else b
        return self.node("Gemm", [x, self.init("fc.weight", w), self.init("fc.bias", b)],
                         alpha=1.0, beta=1.0, transB=1)

    def flatten_view(self, x):  # x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze -> Concat -> Reshape
        batch = self.node("Gather", [self.node("Shape", [x]), self.constant(np.array(0, np.int64))], axis=0)
        batch = self.node("Unsqueeze", [batch, self.constant(np.array([0], np.int64))])
        shape = self.node("Concat", [batch, self.constant(np.array([-1], np.int64))], axis=0)
        return self.node("Reshape", [x, shape])

    def model(self, x_name, x_shape, y, y_shape, opset):  # the batch dimension symbolic, as exported
        graph = helper.make_graph(
            self.nodes, "main_graph",
            [helper.make_tensor_value_info(x_name, TensorProto.FLOAT, ["batch_size"] + x_shape[1:])],
            [helper.make_tensor_value_info(y, TensorProto.FLOAT, ["batch_size"] + y_shape[1:])], self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                                  producer_name="pytorch", producer_version="2.1.0")
        model.ir_version = 8
        onnx.checker.check_model(model)
        return model


def cnn():  # Conv/BN/Relu/MaxPool x2 (the second grouped), Conv/BN/Relu, GlobalAveragePool, Flatten, Gemm, Softmax
    b = Builder(1)
    y = b.conv_bn_relu("input", 3, 8, (3, 3), pad=1)
    y = b.node("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 0, 0])
    y = b.conv_bn_relu(y, 8, 16, (3, 3), pad=1, group=2)  # grouped (ResNeXt-style), not depthwise
    y = b.node("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 0, 0])
    y = b.conv_bn_relu(y, 16, 32, (3, 3), stride=2, pad=1)
    y = b.node("Flatten", [b.node("GlobalAveragePool", [y])], axis=1)
    y = b.node("Softmax", [b.linear(y, 32, 10)], axis=1)
    return b.model("input", [1, 3, 32, 32], y, [1, 10], 13)


def ds_cnn():  # KWS-style: a strided Conv, two depthwise (group = channels) + pointwise blocks with ReLU6, avg pool,
    # x.view(x.size(0), -1) of a [1, 32, 3, 1] map into the Gemm
    b = Builder(2)
    y = b.conv_bn_relu("input", 1, 32, (10, 4), stride=2, pad=1)
    for _ in range(2):
        y = b.conv_bn_relu(y, 32, 32, (3, 3), pad=1, group=32, relu6=True)
        y = b.conv_bn_relu(y, 32, 32, (1, 1), relu6=True)
    y = b.node("AveragePool", [y], kernel_shape=[7, 5], strides=[7, 5])  # [1, 32, 3, 1]: flattened as NCHW
    y = b.node("Softmax", [b.linear(b.flatten_view(y), 96, 12)], axis=1)
    return b.model("input", [1, 1, 49, 10], y, [1, 12], 15)


def mlp_autoencoder():  # 128 -> 64 -> 16 -> 64 -> 128, ReLU between, a Flatten in front (opset 17)
    b = Builder(3)
    y, sizes = b.node("Flatten", ["input"], axis=1), [128, 64, 16, 64, 128]
    for i in range(len(sizes) - 1):
        y = b.linear(y, sizes[i], sizes[i + 1])
        if i + 2 < len(sizes):
            y = b.node("Relu", [y])
    return b.model("input", [1, 128], y, [1, 128], 17)


def unet():
    """A small segmentation net: encoder Conv/BN/Relu and MaxPool; decoder ConvTranspose (k2 s2) plus a
    nearest Upsample (Resize, asymmetric/floor as nn.Upsample exports it), Concat with the skip, a bilinear
    F.interpolate (Resize linear, pytorch_half_pixel), a 1x1 Conv and Sigmoid."""
    b = Builder(5)
    skip = b.conv_bn_relu("input", 3, 8, (3, 3), pad=1)
    y = b.conv_bn_relu(b.node("MaxPool", [skip], kernel_shape=[2, 2], strides=[2, 2]), 8, 16, (3, 3), pad=1)
    w = b.init("up.weight", b.weight((16, 8, 2, 2), 16 * 4))
    up = b.node("ConvTranspose", [y, w, b.init("up.bias", np.zeros(8, np.float32))], kernel_shape=[2, 2],
                strides=[2, 2])
    near = b.node("Resize", [b.conv_bn_relu(y, 16, 8, (1, 1)), "", b.constant(np.array([1, 1, 2, 2], np.float32))],
                  mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    y = b.node("Concat", [b.node("Add", [up, near]), skip], axis=1)
    y = b.conv_bn_relu(y, 16, 8, (3, 3), pad=1)
    y = b.node("Resize", [y, "", b.constant(np.array([1, 1, 2, 2], np.float32))], mode="linear",
               coordinate_transformation_mode="pytorch_half_pixel")
    w = b.init("head.weight", b.weight((1, 8, 1, 1), 8))
    y = b.node("Sigmoid", [b.node("Conv", [y, w, b.init("head.bias", np.zeros(1, np.float32))], kernel_shape=[1, 1])])
    return b.model("input", [1, 3, 16, 16], y, [1, 1, 32, 32], 13)


def gru_unrolled(steps=6, features=12, hidden=24, classes=5):
    """A GRU cell looped over time, as torch.onnx exports an nn.GRUCell loop: per step Gather, two Gemms,
    Split into r, z, n, Sigmoid/Tanh, h = (1 - z) * n + z * h; then a Gemm on the last h."""
    b = Builder(4)
    w_ih, w_hh = b.weight((3 * hidden, features), features), b.weight((3 * hidden, hidden), hidden)
    b_ih = (b.rng.randn(3 * hidden) * 0.1).astype(np.float32)
    b_hh = (b.rng.randn(3 * hidden) * 0.1).astype(np.float32)
    names = [b.init("gru.weight_ih", w_ih), b.init("gru.weight_hh", w_hh), b.init("gru.bias_ih", b_ih),
             b.init("gru.bias_hh", b_hh)]
    split = b.constant(np.array([hidden] * 3, np.int64))
    h = b.init("h0", np.zeros((1, hidden), np.float32))
    one = b.constant(np.array(1.0, np.float32))
    for t in range(steps):
        x = b.node("Gather", ["input", b.constant(np.array(t, np.int64))], axis=1)
        gi = b.node("Split", [b.node("Gemm", [x, names[0], names[2]], transB=1), split], 3, axis=1)
        gh = b.node("Split", [b.node("Gemm", [h, names[1], names[3]], transB=1), split], 3, axis=1)
        r = b.node("Sigmoid", [b.node("Add", [gi[0], gh[0]])])
        z = b.node("Sigmoid", [b.node("Add", [gi[1], gh[1]])])
        n = b.node("Tanh", [b.node("Add", [gi[2], b.node("Mul", [r, gh[2]])])])
        h = b.node("Add", [b.node("Mul", [b.node("Sub", [one, z]), n]), b.node("Mul", [z, h])])
    y = b.linear(h, hidden, classes)
    return b.model("input", [1, steps, features], y, [1, classes], 13)


def recurrent_weights(b, gates, features, hidden):  # W, R and B of one direction, PyTorch's uniform init
    k = 1.0 / np.sqrt(hidden)
    def u(*shape):
        return b.rng.uniform(-k, k, shape).astype(np.float32)
    return u(1, gates * hidden, features), u(1, gates * hidden, hidden), u(1, 2 * gates * hidden)


def lstm(steps=12, features=10, hidden=16, classes=6):
    """KWS-style: an nn.LSTM(batch_first=True) over 12 feature frames, as torch.onnx exports it (Transpose
    to [seq, batch, features], LSTM with zero initial states, opset 14), its Y_h through a Gemm head."""
    b = Builder(5)
    w, r, bias = recurrent_weights(b, 4, features, hidden)
    zeros = b.init("h0", np.zeros((1, 1, hidden), np.float32))
    x = b.node("Transpose", ["input"], perm=[1, 0, 2])
    _, y_h, _ = b.node("LSTM", [x, b.init("lstm.W", w), b.init("lstm.R", r), b.init("lstm.B", bias), "", zeros,
                                b.init("c0", np.zeros((1, 1, hidden), np.float32))], 3, hidden_size=hidden)
    h = b.node("Squeeze", [y_h, b.constant(np.array([0], np.int64))])
    return b.model("input", [1, steps, features], b.linear(h, hidden, classes), [1, classes], 14)


def bilstm(steps=6, features=8, hidden=8, classes=4):
    """A bidirectional nn.LSTM with given (non-zero) h0 and c0, its whole Y re-laid batch first and
    flattened into a Gemm: both directions' every step reaches the output."""
    b = Builder(7)
    fwd, bwd = recurrent_weights(b, 4, features, hidden), recurrent_weights(b, 4, features, hidden)
    w, r, bias = (np.concatenate(pair) for pair in zip(fwd, bwd))
    states = [b.init(n, (b.rng.randn(2, 1, hidden) * 0.5).astype(np.float32)) for n in ("h0", "c0")]
    x = b.node("Transpose", ["input"], perm=[1, 0, 2])
    y = b.node("LSTM", [x, b.init("lstm.W", w), b.init("lstm.R", r), b.init("lstm.B", bias), ""] + states,
               hidden_size=hidden, direction="bidirectional")
    y = b.node("Flatten", [b.node("Transpose", [y], perm=[2, 0, 1, 3])], axis=1)
    return b.model("input", [1, steps, features], b.linear(y, steps * 2 * hidden, classes), [1, classes], 14)


def gru(steps=8, features=12, hidden=20, classes=5):
    """An nn.GRU over 8 steps as exported (linear_before_reset=1, opset 13), a non-zero initial state, the
    last step of Y (Squeeze, Gather) through a Gemm head."""
    b = Builder(6)
    w, r, bias = recurrent_weights(b, 3, features, hidden)
    h0 = b.init("h0", (b.rng.randn(1, 1, hidden) * 0.5).astype(np.float32))
    x = b.node("Transpose", ["input"], perm=[1, 0, 2])
    y, _ = b.node("GRU", [x, b.init("gru.W", w), b.init("gru.R", r), b.init("gru.B", bias), "", h0], 2,
                  hidden_size=hidden, linear_before_reset=1)
    y = b.node("Squeeze", [y, b.constant(np.array([1], np.int64))])
    last = b.node("Gather", [y, b.constant(np.array(steps - 1, np.int64))], axis=0)
    return b.model("input", [1, steps, features], b.linear(last, hidden, classes), [1, classes], 13)


def tflite_json(tflite, schema, work):
    subprocess.run(["flatc", "-t", "--strict-json", "--defaults-json", "-o", work, schema, "--", tflite],
                   check=True)
    with open(os.path.join(work, os.path.splitext(os.path.basename(tflite))[0] + ".json")) as f:
        return json.load(f)


def fc_twin(tflite, schema):
    """The ONNX export of a .tflite made of FULLY_CONNECTED layers (fused ReLU or none): Gemm (+ Relu) with
    the .tflite's own float weights, so that both builds must cost the same."""
    with tempfile.TemporaryDirectory() as work:
        m = tflite_json(tflite, schema, work)
    graph, codes = m["subgraphs"][0], m["operator_codes"]
    tensors, buffers = graph["tensors"], m["buffers"]

    def data(index):
        t = tensors[index]
        raw = bytes(buffers[t["buffer"]].get("data", []))
        return np.frombuffer(raw, np.float32).reshape(t["shape"])

    b = Builder(0)
    x_shape = tensors[graph["inputs"][0]]["shape"]
    y, width = "input", 0
    for op in graph["operators"]:
        code = codes[op["opcode_index"]]
        if max(code.get("builtin_code", 0), code.get("deprecated_builtin_code", 0)) != 9:
            sys.exit(f"make_models.py: {tflite}: only FULLY_CONNECTED layers are rewritten")
        w, bias = data(op["inputs"][1]), data(op["inputs"][2])
        y, width = b.linear(y, w.shape[1], w.shape[0], w, bias), w.shape[0]
        activation = op["builtin_options"]["fused_activation_function"]
        if activation == "RELU":
            y = b.node("Relu", [y])
        elif activation != "NONE":
            sys.exit(f"make_models.py: {tflite}: fused {activation} is not rewritten")
    return b.model("input", x_shape, y, [1, width], 13)


def input_shape(model):
    dims = model.graph.input[0].type.tensor_type.shape.dim
    return [d.dim_value if d.dim_value > 0 else 1 for d in dims]


def main(argv):
    out, twins, schema = argv[0], {}, None
    for i in range(1, len(argv), 2):
        if argv[i] == "--twin":
            name, paths = argv[i + 1].split("=", 1)
            twins[name] = paths.split(",")
        elif argv[i] == "--schema":
            schema = argv[i + 1]
    os.makedirs(out, exist_ok=True)
    models = {"cnn_f32": cnn(), "ds_cnn_f32": ds_cnn(), "mlp_autoencoder_f32": mlp_autoencoder(),
              "gru_unrolled_f32": gru_unrolled(), "unet_f32": unet(),
              "lstm_f32": lstm(), "bilstm_f32": bilstm(), "gru_f32": gru()}
    inputs = {}
    for name, (tflite, golden_input) in twins.items():
        models[name] = fc_twin(tflite, schema)
        inputs[name] = np.fromfile(golden_input, np.float32)
    lines = []
    # The recurrent models take the input seeds after the others': those keep their inputs and figures.
    later = ("lstm_f32", "bilstm_f32", "gru_f32")
    for seed, (name, model) in enumerate(sorted(models.items(), key=lambda m: (m[0] in later, m[0]))):
        onnx.save(model, os.path.join(out, name + ".onnx"))
        shape = input_shape(model)
        x = inputs.get(name)
        if x is None:
            x = np.random.RandomState(100 + seed).uniform(-1, 1, shape).astype(np.float32)
        x.astype("<f4").tofile(os.path.join(out, name + ".input0.bin"))
        lines.append(f"{name} {'x'.join(map(str, shape))}\n")
    with open(os.path.join(out, "models.txt"), "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
