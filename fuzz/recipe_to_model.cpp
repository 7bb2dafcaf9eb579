// Writes the .tflite model that graph_recipe.cpp builds from a recipe, so that a graph fuzzer finding can be
// kept in fuzz/regressions/ as the model itself (graph-*): a recipe builds another model once op_list.def
// or the recipe builder changes.
//   microaot_recipe_to_model RECIPE MODEL
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "graph_recipe.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s RECIPE MODEL\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const std::vector<uint8_t> recipe((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<uint8_t> model = microaot::fuzz::model_from_recipe(recipe.data(), recipe.size());
  std::ofstream out(argv[2], std::ios::binary);
  out.write(reinterpret_cast<const char*>(model.data()), static_cast<std::streamsize>(model.size()));
  return out ? 0 : 1;
}
