// The mirrored ring (microaot/kernels/ring.h) against a queue of the last `slots` units: after every push,
// over several wraps, the window at microaot_ring_window holds exactly the queue, oldest first.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

#include "microaot/kernels/ring.h"

namespace {

using Unit = std::vector<uint8_t>;

Unit random_unit(std::mt19937& rng, int32_t bytes) {
  Unit unit(static_cast<size_t>(bytes));
  for (uint8_t& b : unit) b = static_cast<uint8_t>(rng());
  return unit;
}

struct Ring {
  int32_t slots, unit_bytes;
  std::vector<uint8_t> storage;  // 2 * slots - 1 units
  std::vector<uint8_t> position_bytes;  // one byte of padding first: the position need not be aligned

  void* position() { return position_bytes.data() + 1; }

  // ring.h's starting layout, as the compiler writes it: position 0, the kept units (oldest first) in
  // slots 1 .. slots-1 and again `slots` units further on where that slot exists.
  Ring(int32_t slots_, int32_t unit_bytes_, const std::deque<Unit>& kept)
      : slots(slots_), unit_bytes(unit_bytes_), storage(static_cast<size_t>((2 * slots_ - 1) * unit_bytes_), 0xEE),
        position_bytes(5, 0) {
    for (int32_t slot = 1; slot < slots; ++slot) {
      for (int32_t copy = slot; copy < 2 * slots - 1; copy += slots) {
        std::memcpy(&storage[static_cast<size_t>(copy * unit_bytes)], kept[static_cast<size_t>(slot - 1)].data(),
                    static_cast<size_t>(unit_bytes));
      }
    }
  }

  void push(const Unit& unit) {
    const microaot_ring_push_params params = {unit_bytes, slots};
    microaot_ring_push(&params, unit.data(), storage.data(), position());
  }

  std::deque<Unit> window() {
    const size_t start = microaot_ring_window(position(), slots, unit_bytes);
    EXPECT_LE(start + static_cast<size_t>(slots * unit_bytes), storage.size());
    std::deque<Unit> units;
    for (int32_t i = 0; i < slots; ++i) {
      const uint8_t* at = &storage[start + static_cast<size_t>(i * unit_bytes)];
      units.emplace_back(at, at + unit_bytes);
    }
    return units;
  }
};

TEST(RingPush, TheWindowIsTheLastUnitsAfterEveryPush) {
  std::mt19937 rng(7);
  for (int32_t slots : {2, 3, 5, 70}) {
    for (int32_t unit_bytes : {1, 3, 40}) {
      std::deque<Unit> expected;
      for (int32_t i = 0; i + 1 < slots; ++i) expected.push_back(random_unit(rng, unit_bytes));
      Ring ring(slots, unit_bytes, expected);
      for (int32_t step = 0; step < 3 * slots + 2; ++step) {
        const Unit unit = random_unit(rng, unit_bytes);
        ring.push(unit);
        expected.push_back(unit);
        if (static_cast<int32_t>(expected.size()) > slots) expected.pop_front();
        ASSERT_EQ(ring.window(), expected) << slots << " slots of " << unit_bytes << " bytes, step " << step;
      }
    }
  }
}

TEST(RingPush, APositionOutOfRangeStaysInsideTheStorage) {
  std::mt19937 rng(3);
  const std::deque<Unit> kept(3, Unit(4, 0));
  Ring ring(4, 4, kept);
  const uint32_t corrupt = 1000003u;  // 1000003 % 4 == 3: the last slot, which has no mirror
  std::memcpy(ring.position(), &corrupt, sizeof corrupt);
  EXPECT_EQ(microaot_ring_window(ring.position(), 4, 4), 12u);
  ring.push(random_unit(rng, 4));
  uint32_t next = 0;
  std::memcpy(&next, ring.position(), sizeof next);
  EXPECT_EQ(next, 0u);
}

}  // namespace
