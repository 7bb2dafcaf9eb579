// The fused bands in NAME.c (compile/plan_bands.h): each band call's params (the layer's, with the band's
// heights and top padding, sharing the layer's arrays) and the one step-function case that runs the chain's
// calls and line-buffer moves in order.
#include <algorithm>
#include <sstream>
#include <vector>

#include "codegen/c_text.h"
#include "codegen/emit.h"

namespace microaot {

namespace {

std::string band_symbol(const CompiledModel& model, size_t step, size_t shape) {
  return op_symbol(module_names(model), step) + "_band" + std::to_string(shape);
}

bool is_pool_params(const KernelCall& call) { return call.info().params->name.rfind("pool_2d", 0) == 0; }

// A band's params: the layer's with the band's rows (a residual ADD: its element count; a layout head: its
// output rows and the first of its row offsets, the input pointer moved to the band's first row).
ParamValues band_values(const KernelCall& call, const BandLayer& layer, const BandShape& shape) {
  ParamValues values = call.params;
  if (layer.layout_head) {
    std::vector<int64_t> dims = values.find("out_dims")->integers;
    const std::vector<int64_t>& offsets = values.find("offsets")->integers;
    std::vector<int64_t> band(offsets.begin(), offsets.begin() + dims[0] + std::get<1>(shape));
    band.insert(band.end(), offsets.begin() + dims[0] + dims[1], offsets.end());
    dims[1] = std::get<1>(shape);
    values.replace_ints("out_dims", dims);
    values.replace_ints("offsets", band);
    return values;
  }
  if (layer.skip != kNoSkip) {
    const ParamValue* flat = values.find("flat_size");
    MICROAOT_CHECK(flat != nullptr, "a residual band layer without flat_size");
    values.replace_int("flat_size", flat->integer / layer.output_rows * std::get<1>(shape));
    return values;
  }
  values.replace_int("input_height", std::get<0>(shape));
  values.replace_int("output_height", std::get<1>(shape));
  values.replace_int(is_pool_params(call) ? "padding_height" : "pad_height", std::get<2>(shape));
  return values;
}

// The byte offsets of a band call's operands: its data input's rows, and a residual ADD's skip rows.
std::vector<int64_t> input_offsets(const CompiledModel& model, const FusedChain& chain, const BandCall& c) {
  const size_t step = static_cast<size_t>(chain.first_step + c.layer);
  const BandLayer& layer = chain.layers[c.layer];
  const int64_t input = c.input_row * layer.input_row_bytes;
  if (layer.skip == kNoSkip) return {input};
  const Graph& g = model.graph;
  const bool first_is_data = g.storage_of(g.ops[step].inputs[0]) == g.storage_of(g.ops[step - 1].outputs[0]);
  const int64_t skip = c.skip_row * layer.output_row_bytes;
  return first_is_data ? std::vector<int64_t>{input, skip} : std::vector<int64_t>{skip, input};
}

std::string line_address(const CompiledModel& model, const FusedChain& chain, int buffer, int64_t row) {
  const size_t step = static_cast<size_t>(chain.first_step + buffer);
  return "(" + planned_address(model, model.graph.ops[step].outputs[0]) + " + " +
         std::to_string(row * chain.layers[buffer].output_row_bytes) + ")";
}

}  // namespace

std::string emit_band_params(const CompiledModel& model) {
  std::ostringstream out;
  for (const FusedChain& chain : model.chains) {
    out << "/* Fused bands of steps " << chain.first_step << "-" << chain.last_step << " (" << chain.band_rows
        << " output rows a band): each layer's params with the band's heights. */\n";
    for (int layer = 0; layer < static_cast<int>(chain.layers.size()); ++layer) {
      const size_t step = static_cast<size_t>(chain.first_step + layer);
      const KernelCall& call = model.calls[step];
      const std::vector<BandShape> shapes = band_shapes(chain.schedule, layer);
      for (size_t i = 0; i < shapes.size(); ++i) {
        const ParamValues values = band_values(call, chain.layers[layer], shapes[i]);
        const std::string symbol = band_symbol(model, step, i);
        if (chain.layers[layer].layout_head) {  // its own tables
          out << c_params_arrays(symbol, *call.info().params, values)
              << c_params_definition(symbol, *call.info().params, values, "");
          continue;
        }
        out << c_params_definition(symbol, *call.info().params, values,
                                   op_symbol(module_names(model), params_owner(model, step)));
      }
    }
  }
  return out.str() + (model.chains.empty() ? "" : "\n");
}

std::string emit_band_case(const CompiledModel& model, const FusedChain& chain) {
  std::ostringstream out;
  out << "    case " << chain.first_step << "u: { /* steps " << chain.first_step << "-" << chain.last_step
      << " in bands of " << chain.band_rows << " rows (fused; the later steps do nothing) */\n";
  bool status_declared = false;
  for (const BandAction& a : chain.schedule.actions) {
    if (!a.is_call) {
      const int64_t bytes = a.move.count * chain.layers[a.move.buffer].output_row_bytes;
      out << "      microaot_band_move(" << line_address(model, chain, a.move.buffer, a.move.to) << ", "
          << line_address(model, chain, a.move.buffer, a.move.from) << ", " << bytes << "u);\n";
      continue;
    }
    const BandCall& c = a.call;
    const size_t step = static_cast<size_t>(chain.first_step + c.layer);
    const std::vector<BandShape> shapes = band_shapes(chain.schedule, c.layer);
    const size_t shape = static_cast<size_t>(std::find(shapes.begin(), shapes.end(), band_shape(c)) - shapes.begin());
    std::string prelude;
    const std::string text =
        kernel_call_text(model, step, band_symbol(model, step, shape) + "_params", input_offsets(model, chain, c),
                         c.output_row * chain.layers[c.layer].output_row_bytes, prelude);
    out << prelude;
    if (model.calls[step].info().returns_status()) {
      if (!status_declared) out << "      microaot_status status;\n";
      status_declared = true;
      out << "      status = " << text << ";\n      if (status != MICROAOT_STATUS_OK) return status;\n";
    } else {
      out << "      " << text << ";\n";
    }
  }
  out << "      break;\n    }\n";
  return out.str();
}

}  // namespace microaot

namespace microaot {

int residual_skip_tensor(const CompiledModel& model, const FusedChain& c, int layer) {
  const int skip = c.layers[static_cast<size_t>(layer)].skip;
  MICROAOT_CHECK(skip != kNoSkip, "a band layer without skip operand");
  const Graph& g = model.graph;
  const int step = skip == kChainInput ? c.first_step : c.first_step + skip;
  return g.storage_of(skip == kChainInput ? g.ops[step].inputs[0] : g.ops[step].outputs[0]);
}

std::string bands_plan_text(const CompiledModel& model) {
  if (model.chains.empty() && model.tiling_floor_bytes <= 0) return "";
  std::ostringstream out;
  out << "\nfused bands:  " << model.chains.size() << " chain(s); classic bound untiled " << model.untiled_bound_bytes
      << " bytes,\n              the most tiling could reach " << model.tiling_floor_bytes << " (docs/tiling.md)\n";
  for (const FusedChain& c : model.chains) {
    out << "  steps " << c.first_step << "-" << c.last_step << " in bands of " << c.band_rows
        << (c.pace == BandPace::kEveryLayer ? " rows of every layer" : " output rows")
        << ", run in step " << c.first_step << " (the later steps do nothing)\n    "
        << c.schedule.calls << " calls, " << c.schedule.moved_bytes << " bytes moved, ~" << c.extra_instructions
        << " instructions more (estimated)\n";
    for (size_t i = 0; i + 1 < c.layers.size(); ++i) {
      const int tensor = model.graph.ops[c.first_step + i].outputs[0];
      out << "    t" << model.graph.storage_of(tensor) << ": line buffer of " << c.schedule.line_rows[i] << " of "
          << c.layers[i].output_rows << " rows (" << c.schedule.line_rows[i] * c.layers[i].output_row_bytes
          << " of " << c.layers[i].output_rows * c.layers[i].output_row_bytes << " bytes)\n";
    }
    for (size_t i = 0; i < c.layers.size(); ++i) {
      if (c.layers[i].skip == kNoSkip) continue;
      out << "    step " << c.first_step + static_cast<int>(i) << ": residual ADD, its skip rows read from t"
          << residual_skip_tensor(model, c, static_cast<int>(i))
          << (c.layers[i].skip == kChainInput ? " (the chain's input)\n" : " (kept in its line buffer)\n");
    }
  }
  return out.str();
}

}  // namespace microaot
