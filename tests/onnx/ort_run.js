#!/usr/bin/env node
// Runs an ONNX model with onnxruntime (CPU) on raw little-endian input files and writes one raw
// little-endian file per output, in the model's output order: OUT_DIR/output0.bin, output1.bin, ...
// The oracle of the real-model ONNX tests. Each input file must hold exactly the input's bytes.
//
//   node ort_run.js MODEL.onnx OUT_DIR IN0.bin [IN1.bin ...]      (inputs in the model's input order)
//   node ort_run.js --shape NAME=1x3x32x32 ... MODEL.onnx OUT_DIR IN0.bin   (fixes symbolic dimensions)
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

// onnxruntime's tensor type name -> typed array constructor.
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array,
  uint64: BigUint64Array, bool: Uint8Array,
};

function fail(message) {
  process.stderr.write(`ort_run: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const shapes = {};
  const rest = [];
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--shape') {
      const m = /^([^=]+)=([0-9x]+)$/.exec(argv[++i] || '');
      if (!m) fail(`--shape wants NAME=1x3x32x32, got '${argv[i]}'`);
      shapes[m[1]] = m[2].split('x').map(Number);
    } else {
      rest.push(argv[i]);
    }
  }
  if (rest.length < 2) fail('usage: ort_run.js [--shape NAME=DIMS]... MODEL.onnx OUT_DIR [IN.bin]...');
  return { shapes, model: rest[0], outDir: rest[1], inputs: rest.slice(2) };
}

// The input's dimensions: --shape's, else the model's, a symbolic leading (batch) dimension taken as 1.
function inputDims(meta, shapes) {
  if (shapes[meta.name]) return shapes[meta.name];
  return meta.shape.map((d, i) => {
    if (typeof d === 'number' && d >= 0) return d;
    if (i === 0) return 1;
    fail(`input '${meta.name}' has symbolic dimension ${i} ('${d}'): give --shape ${meta.name}=...`);
  });
}

function makeTensor(meta, dims, file) {
  const Array_ = ARRAYS[meta.type];
  if (!Array_) fail(`input '${meta.name}' has type ${meta.type}, which this script does not feed`);
  const bytes = fs.readFileSync(file);
  const count = dims.reduce((a, b) => a * b, 1);
  if (bytes.length !== count * Array_.BYTES_PER_ELEMENT) {
    fail(`${file}: ${bytes.length} bytes, input '${meta.name}' [${dims}] ${meta.type} needs ` +
         `${count * Array_.BYTES_PER_ELEMENT}`);
  }
  const data = new Array_(new Uint8Array(bytes).buffer);  // an aligned copy; the host is little-endian
  if (meta.type === 'bool') data.forEach((v, i) => { data[i] = v ? 1 : 0; });
  return new ort.Tensor(meta.type, data, dims);
}

function tensorBytes(tensor) {
  const data = tensor.data;
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fail(`output of type ${tensor.type} cannot be written as raw bytes`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const session = await ort.InferenceSession.create(args.model, { executionProviders: ['cpu'] });
  const metas = session.inputMetadata;
  if (args.inputs.length !== metas.length) {
    fail(`the model has ${metas.length} input(s) (${session.inputNames.join(', ')}), ` +
         `${args.inputs.length} file(s) given`);
  }
  const feeds = {};
  metas.forEach((meta, i) => {
    if (!meta.isTensor) fail(`input '${meta.name}' is not a tensor`);
    feeds[meta.name] = makeTensor(meta, inputDims(meta, args.shapes), args.inputs[i]);
  });
  const results = await session.run(feeds);
  fs.mkdirSync(args.outDir, { recursive: true });
  session.outputNames.forEach((name, i) => {
    fs.writeFileSync(path.join(args.outDir, `output${i}.bin`), tensorBytes(results[name]));
  });
}

main().catch((error) => fail(error && error.message ? error.message : String(error)));
