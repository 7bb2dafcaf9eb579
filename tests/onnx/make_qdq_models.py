#!/usr/bin/python3
"""Writes the quantized ONNX test models, the way onnxruntime's quantizer lays them out, with fixed seeds.

  make_qdq_models.py OUT_DIR

OUT_DIR/qdq_s8.onnx   QDQ CNN, int8 activations: per-tensor activations, per-channel int8 weights, int32 bias
                      through DequantizeLinear; Conv+Relu, MaxPool, depthwise Conv+Relu, pointwise Conv,
                      Add residual, AveragePool, Flatten, Gemm (transB, per-channel)
OUT_DIR/qdq_u8.onnx   the same network with uint8 activations (zero point + 128)
OUT_DIR/qop_u8.onnx   QOperator: QuantizeLinear, QLinearConv, MaxPool on uint8, QLinearConv (stride 2),
                      Reshape, QLinearMatMul, DequantizeLinear
OUT_DIR/qop_contrib_u8.onnx  onnxruntime's contrib QOperator nodes (com.microsoft): QLinearConv, QLinearAdd,
                      QLinearLeakyRelu, QLinearGlobalAveragePool, QGemm (per-channel), QLinearMul, QLinearSigmoid
OUT_DIR/qdq_ops_s8.onnx  QDQ groups of Relu, Mul, Sub, LeakyRelu, Concat, GlobalAveragePool, Flatten
OUT_DIR/input0.bin .. input2.bin   float32 inputs, 1x3x16x16, uniform in [-1, 1]

Activation scales come from the float network's ranges on the inputs (numpy), as a calibration would.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SEED = 20261206
INPUTS = 3
SHAPE = (1, 3, 16, 16)


def conv(x, w, b, stride=1, pad=0, group=1):
    """x [C, H, W], w [O, C/group, kh, kw]: the float convolution."""
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    kh, kw = w.shape[2:]
    patches = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(1, 2))[:, ::stride, ::stride]
    if group == 1:
        out = np.einsum('cijkl,ockl->oij', patches, w)
    else:  # depthwise
        out = np.einsum('cijkl,ckl->cij', patches, w[:, 0])
    return out + b[:, None, None]


def pool(x, k, average):
    c, h, w = x.shape
    v = x.reshape(c, h // k, k, w // k, k)
    return v.mean(axis=(2, 4)) if average else v.max(axis=(2, 4))


class Builder:
    def __init__(self, uint8):
        self.uint8 = uint8
        self.nodes, self.inits, self.value_info = [], [], []
        self.count = 0

    def name(self, stem):
        self.count += 1
        return f'{stem}_{self.count}'

    def init(self, array, stem):
        n = self.name(stem)
        self.inits.append(numpy_helper.from_array(array, n))
        return n

    def act_params(self, values):
        lo, hi = min(float(values.min()), 0.0), max(float(values.max()), 0.0)
        scale = np.float32((hi - lo) / 255.0 or 1.0 / 255.0)
        zp = int(np.clip(np.round(-128 - lo / scale), -128, 127))
        if self.uint8:
            return scale, np.uint8(zp + 128)
        return scale, np.int8(zp)

    def qdq(self, x, params):
        """QuantizeLinear then DequantizeLinear of activation x with params (scale, zero point)."""
        s = self.init(np.array(params[0], np.float32), 'scale')
        z = self.init(np.array(params[1]), 'zp')
        q = self.name('q')
        self.nodes.append(helper.make_node('QuantizeLinear', [x, s, z], [q], name=self.name('QuantizeLinear')))
        d = self.name('dq')
        self.nodes.append(helper.make_node('DequantizeLinear', [q, s, z], [d], name=self.name('DequantizeLinear')))
        return d

    def weights(self, w, axis=0):
        """Per-channel symmetric int8 weights along axis, through DequantizeLinear; returns (name, scales)."""
        other = tuple(d for d in range(w.ndim) if d != axis)
        scales = (np.abs(w).max(axis=other) / 127.0).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(np.round(w / scales.reshape(shape)), -127, 127).astype(np.int8)
        qn = self.init(q, 'w')
        sn = self.init(scales, 'w_scale')
        zn = self.init(np.zeros(len(scales), np.int8), 'w_zp')
        d = self.name('w_dq')
        self.nodes.append(helper.make_node('DequantizeLinear', [qn, sn, zn], [d], axis=axis, name=self.name('DequantizeLinear')))
        return d, q.astype(np.float32) * scales.reshape(shape)

    def bias(self, b, x_scale, w_scales):
        scales = (np.float32(x_scale) * w_scales).astype(np.float32)
        q = np.round(b / scales).astype(np.int32)
        qn = self.init(q, 'b')
        sn = self.init(scales, 'b_scale')
        zn = self.init(np.zeros(len(scales), np.int32), 'b_zp')
        d = self.name('b_dq')
        self.nodes.append(helper.make_node('DequantizeLinear', [qn, sn, zn], [d], axis=0, name=self.name('DequantizeLinear')))
        return d


def rand(rng, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def make_qdq(uint8, xs):
    rng = np.random.default_rng(SEED)
    w1, b1 = rand(rng, 8, 3, 3, 3, scale=0.4), rand(rng, 8, scale=0.1)
    wd, bd = rand(rng, 8, 1, 3, 3, scale=0.5), rand(rng, 8, scale=0.1)
    wp, bp = rand(rng, 8, 8, 1, 1, scale=0.4), rand(rng, 8, scale=0.1)
    wg, bg = rand(rng, 10, 128, scale=0.15), rand(rng, 10, scale=0.1)
    bl = Builder(uint8)
    # Float activations of the network on the inputs, for the scales.
    a = {k: [] for k in ('x', 'c1', 'dw', 'pw', 'add', 'y')}
    for x in xs:
        x = x[0]
        c1 = np.maximum(conv(x, w1, b1, pad=1), 0)
        p1 = pool(c1, 2, False)
        dw = np.maximum(conv(p1, wd, bd, pad=1, group=8), 0)
        pw = conv(dw, wp, bp)
        add = p1 + pw
        p2 = pool(add, 2, True)
        y = wg @ p2.reshape(-1) + bg
        for k, v in zip(a, (x, c1, dw, pw, add, y)):
            a[k].append(v)
    params = {k: bl.act_params(np.stack(v)) for k, v in a.items()}

    x = bl.qdq('input', params['x'])
    w, _ = bl.weights(w1)
    c = bl.name('conv1')
    bl.nodes.append(helper.make_node('Conv', [x, w, bl.bias(b1, params['x'][0], bl.w_scales(w1))], [c], pads=[1, 1, 1, 1], name='conv1'))
    r = bl.name('relu1')
    bl.nodes.append(helper.make_node('Relu', [c], [r], name='relu1'))
    c1 = bl.qdq(r, params['c1'])
    p = bl.name('pool1')
    bl.nodes.append(helper.make_node('MaxPool', [c1], [p], kernel_shape=[2, 2], strides=[2, 2], name='pool1'))
    p1 = bl.qdq(p, params['c1'])
    w, _ = bl.weights(wd)
    c = bl.name('dw')
    bl.nodes.append(helper.make_node('Conv', [p1, w, bl.bias(bd, params['c1'][0], bl.w_scales(wd))], [c], pads=[1, 1, 1, 1], group=8, name='dw'))
    r = bl.name('relu2')
    bl.nodes.append(helper.make_node('Relu', [c], [r], name='relu2'))
    dw = bl.qdq(r, params['dw'])
    w, _ = bl.weights(wp)
    c = bl.name('pw')
    bl.nodes.append(helper.make_node('Conv', [dw, w, bl.bias(bp, params['dw'][0], bl.w_scales(wp))], [c], name='pw'))
    pw = bl.qdq(c, params['pw'])
    s = bl.name('add')
    bl.nodes.append(helper.make_node('Add', [p1, pw], [s], name='add'))
    s = bl.qdq(s, params['add'])
    p = bl.name('pool2')
    bl.nodes.append(helper.make_node('AveragePool', [s], [p], kernel_shape=[2, 2], strides=[2, 2], name='pool2'))
    p2 = bl.qdq(p, params['add'])
    f = bl.name('flatten')
    bl.nodes.append(helper.make_node('Flatten', [p2], [f], name='flatten'))
    f = bl.qdq(f, params['add'])
    w, _ = bl.weights(wg)
    g = bl.name('gemm')
    bl.nodes.append(helper.make_node('Gemm', [f, w, bl.bias(bg, params['add'][0], bl.w_scales(wg))], [g], transB=1, name='gemm'))
    y = bl.qdq(g, params['y'])
    bl.nodes.append(helper.make_node('Identity', [y], ['output'], name='output'))
    return finish(bl, 'qdq_u8' if uint8 else 'qdq_s8')


def w_scales(self, w, axis=0):
    other = tuple(d for d in range(w.ndim) if d != axis)
    return (np.abs(w).max(axis=other) / 127.0).astype(np.float32)


Builder.w_scales = w_scales


def make_qop(xs):
    """QOperator: QLinearConv (uint8 activations, int8 per-channel weights, int32 bias), QLinearMatMul."""
    rng = np.random.default_rng(SEED + 1)
    w1, b1 = rand(rng, 8, 3, 3, 3, scale=0.4), rand(rng, 8, scale=0.1)
    w2, b2 = rand(rng, 8, 8, 3, 3, scale=0.2), rand(rng, 8, scale=0.1)
    wm = rand(rng, 32, 10, scale=0.2)
    bl = Builder(True)
    a = {k: [] for k in ('x', 'c1', 'c2', 'y')}
    for x in xs:
        x = x[0]
        c1 = conv(x, w1, b1, pad=1)
        p1 = pool(c1, 2, False)
        c2 = conv(p1, w2, b2, stride=2, pad=1)
        y = c2.reshape(4, 32) @ wm
        for k, v in zip(a, (x, c1, c2, y)):
            a[k].append(v)
    pr = {k: bl.act_params(np.stack(v)) for k, v in a.items()}
    cn = lambda v, stem: bl.init(np.array(v), stem)  # noqa: E731

    def qconv(x, xp, w, b, yp, stem, **attrs):
        ws = bl.w_scales(w)
        q = np.clip(np.round(w / ws[:, None, None, None]), -127, 127).astype(np.int8)
        bq = np.round(b / (np.float32(xp[0]) * ws)).astype(np.int32)
        y = bl.name(stem)
        ins = [x, cn(xp[0], 's'), cn(xp[1], 'z'), bl.init(q, 'w'), bl.init(ws, 'ws'), bl.init(np.zeros(8, np.int8), 'wz'),
               cn(yp[0], 's'), cn(yp[1], 'z'), bl.init(bq, 'b')]
        bl.nodes.append(helper.make_node('QLinearConv', ins, [y], name=stem, **attrs))
        return y

    xq = bl.name('xq')
    bl.nodes.append(helper.make_node('QuantizeLinear', ['input', cn(pr['x'][0], 's'), cn(pr['x'][1], 'z')], [xq], name='quantize'))
    c1 = qconv(xq, pr['x'], w1, b1, pr['c1'], 'qconv1', pads=[1, 1, 1, 1])
    p1 = bl.name('pool')
    bl.nodes.append(helper.make_node('MaxPool', [c1], [p1], kernel_shape=[2, 2], strides=[2, 2], name='pool'))
    c2 = qconv(p1, pr['c1'], w2, b2, pr['c2'], 'qconv2', pads=[1, 1, 1, 1], strides=[2, 2])
    r = bl.name('reshape')
    bl.nodes.append(helper.make_node('Reshape', [c2, bl.init(np.array([4, 32], np.int64), 'shape')], [r], name='reshape'))
    ms = (np.abs(wm).max() / 127.0).astype(np.float32)
    mq = np.clip(np.round(wm / ms), -127, 127).astype(np.int8)
    m = bl.name('matmul')
    bl.nodes.append(helper.make_node('QLinearMatMul', [r, cn(pr['c2'][0], 's'), cn(pr['c2'][1], 'z'), bl.init(mq, 'b'),
                                                       cn(ms, 's'), cn(np.int8(0), 'z'), cn(pr['y'][0], 's'), cn(pr['y'][1], 'z')],
                                     [m], name='matmul'))
    bl.nodes.append(helper.make_node('DequantizeLinear', [m, cn(pr['y'][0], 's'), cn(pr['y'][1], 'z')], ['output'], name='dequantize'))
    return finish(bl, 'qop_u8', out_shape=[4, 10])


def make_qop_contrib(xs):
    rng = np.random.default_rng(SEED + 2)
    w1, b1 = rand(rng, 8, 3, 3, 3, scale=0.4), rand(rng, 8, scale=0.1)
    wg, bg = rand(rng, 10, 8, scale=0.5), rand(rng, 10, scale=0.1)
    bl = Builder(True)
    a = {k: [] for k in ('x', 'c1', 'lr', 'add', 'gap', 'g', 'mul', 'y')}
    for x in xs:
        x = x[0]
        c1 = conv(x, w1, b1, pad=1)
        lr = np.where(c1 > 0, c1, 0.1 * c1)
        add = c1 + lr
        gap = add.mean(axis=(1, 2))
        g = wg @ gap + bg
        mul = g * g
        y = 1 / (1 + np.exp(-mul))
        for k, v in zip(a, (x, c1, lr, add, gap, g, mul, y)):
            a[k].append(v)
    pr = {k: bl.act_params(np.stack(v)) for k, v in a.items()}
    cn = lambda v, stem: bl.init(np.array(v), stem)  # noqa: E731
    qp = lambda k: [cn(pr[k][0], 's'), cn(pr[k][1], 'z')]  # noqa: E731

    def node(kind, ins, stem, shape=None, domain='com.microsoft', **attrs):
        y = bl.name(stem)
        bl.nodes.append(helper.make_node(kind, ins, [y], name=stem, domain=domain, **attrs))
        if shape:  # onnx's shape inference knows no contrib schemas: their results' types, as quantizers write
            bl.value_info.append(helper.make_tensor_value_info(y, TensorProto.UINT8, shape))
        return y

    xq = node('QuantizeLinear', ['input'] + qp('x'), 'quantize', domain='')
    ws = bl.w_scales(w1)
    q1 = np.clip(np.round(w1 / ws[:, None, None, None]), -127, 127).astype(np.int8)
    c1 = node('QLinearConv', [xq] + qp('x') + [bl.init(q1, 'w'), bl.init(ws, 'ws'), bl.init(np.zeros(8, np.int8), 'wz')] +
              qp('c1') + [bl.init(np.round(b1 / (pr['x'][0] * ws)).astype(np.int32), 'b')], 'qconv', domain='', pads=[1, 1, 1, 1])
    lr = node('QLinearLeakyRelu', [c1] + qp('c1') + qp('lr'), 'leaky', [1, 8, 16, 16], alpha=0.1)
    add = node('QLinearAdd', [c1] + qp('c1') + [lr] + qp('lr') + qp('add'), 'add', [1, 8, 16, 16])
    gap = node('QLinearGlobalAveragePool', [add] + qp('add') + qp('gap'), 'gap', [1, 8, 1, 1])
    flat = node('Reshape', [gap, bl.init(np.array([1, 8], np.int64), 'shape')], 'flatten', [1, 8], domain='')
    gs = bl.w_scales(wg)
    gq = np.clip(np.round(wg / gs[:, None]), -127, 127).astype(np.int8)
    g = node('QGemm', [flat] + qp('gap') + [bl.init(gq, 'wg'), bl.init(gs, 'wgs'), bl.init(np.zeros(10, np.int8), 'wgz'),
                                            bl.init(np.round(bg / (pr['gap'][0] * gs)).astype(np.int32), 'bg')] + qp('g'),
             'gemm', [1, 10], transB=1)
    mul = node('QLinearMul', [g] + qp('g') + [g] + qp('g') + qp('mul'), 'mul', [1, 10])
    y = node('QLinearSigmoid', [mul] + qp('mul') + qp('y'), 'sigmoid', [1, 10])
    bl.nodes.append(helper.make_node('DequantizeLinear', [y] + qp('y'), ['output'], name='dequantize'))
    return finish(bl, 'qop_contrib_u8', out_shape=[1, 10], contrib=True)


def make_ops():
    """The element-wise and reduction QDQ groups, on hand-set scales for inputs in [-1, 1]."""
    bl = Builder(False)
    p = {'x': (np.float32(2 / 255), np.int8(0)), 'pos': (np.float32(1 / 255), np.int8(-128)),
         'neg': (np.float32(0.25 / 255), np.int8(127)), 'mean': (np.float32(0.2 / 255), np.int8(0))}

    def op(kind, ins, params, **attrs):
        y = bl.name(kind.lower())
        bl.nodes.append(helper.make_node(kind, ins, [y], name=y, **attrs))
        return bl.qdq(y, p[params])

    x = bl.qdq('input', p['x'])
    b = op('Relu', [x], 'pos')
    m = op('Mul', [x, b], 'pos')
    d = op('Sub', [m, b], 'neg')
    r = op('LeakyRelu', [d], 'x', alpha=0.1)
    c = op('Concat', [r, x], 'x', axis=1)
    g = op('GlobalAveragePool', [c], 'mean')
    y = op('Flatten', [g], 'mean')
    bl.nodes.append(helper.make_node('Identity', [y], ['output'], name='output'))
    return finish(bl, 'qdq_ops_s8', out_shape=[1, 6])


def finish(bl, name, out_shape=(1, 10), contrib=False):
    graph = helper.make_graph(bl.nodes, name, [helper.make_tensor_value_info('input', TensorProto.FLOAT, SHAPE)],
                              [helper.make_tensor_value_info('output', TensorProto.FLOAT, list(out_shape))], bl.inits,
                              value_info=bl.value_info)
    opsets = [helper.make_opsetid('', 13)] + ([helper.make_opsetid('com.microsoft', 1)] if contrib else [])
    model = helper.make_model(graph, producer_name='microaot-tests', opset_imports=opsets)
    model.ir_version = 7
    if not contrib:  # the checker knows no com.microsoft schemas
        onnx.checker.check_model(model)
    return name, model


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(SEED)
    xs = [rng.uniform(-1, 1, SHAPE).astype(np.float32) for _ in range(INPUTS)]
    for i, x in enumerate(xs):
        x.tofile(os.path.join(out, f'input{i}.bin'))
    for name, model in (make_qdq(False, xs), make_qdq(True, xs), make_qop(xs), make_qop_contrib(xs), make_ops()):
        onnx.save(model, os.path.join(out, name + '.onnx'))


if __name__ == '__main__':
    main()
