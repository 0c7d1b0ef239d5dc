#include "killteam/dice/roller.hpp"

#include <algorithm>

#include "killteam/dice/resolve.hpp"

namespace mh::kt {

using namespace dice_steps;

namespace {

// The counts of AttackRoller's tables, packed 4 bits a field (at most 12 dice).
uint16_t pack_counts(int c, int n, int ones, int rerolled) {
    return static_cast<uint16_t>(c | n << 4 | ones << 8 | rerolled << 12);
}

// The faces of the g dice in a base-6 number (digit i = die i's face - 1), as counts per face.
void add_faces(uint64_t v, int g, int faces[7]) {
    for (int i = 0; i < g; ++i, v /= 6) ++faces[v % 6 + 1];
}

}  // namespace

AttackRoller::AttackRoller(const AttackProfile& p)
    : profile_(p), rolled_(rolled_dice(p)), direct_(rolled_ <= kDirectDice) {
    for (int g = 1; g <= kGroup; ++g) {
        classify_[g].resize(DiceSource::kPow6[g]);
        for (uint64_t v = 0; v < DiceSource::kPow6[g]; ++v) {
            int faces[7] = {0, 0, 0, 0, 0, 0, 0};
            add_faces(v, g, faces);
            int count[3] = {0, 0, 0};
            for (int face = 1; face <= 6; ++face) count[classify(p, face)] += faces[face];
            classify_[g][v] = pack_counts(count[kCrit], count[kNorm], faces[1], 0);
        }
    }
    // 1s matter only as "two or more" (Purity Seal), so they are counted up to 2.
    finish_.assign(kTableSide * kTableSide * 3, 0);
    for (int c = 0; c <= rolled_; ++c) {
        for (int n = 0; c + n <= rolled_; ++n) {
            for (int ones = 0; ones < 3; ++ones) {
                const Retained out = finish_roll(p, c, n, rolled_ - c - n, ones);
                finish_[(c * kTableSide + n) * 3 + ones] = static_cast<uint8_t>(out.crits * kTableSide + out.norms);
            }
        }
    }
    if (!direct_) return;
    const uint64_t numbers = DiceSource::kPow6[rolled_];
    first_.resize(numbers);
    for (uint64_t v = 0; v < numbers; ++v) {
        int faces[7] = {0, 0, 0, 0, 0, 0, 0};
        add_faces(v, rolled_, faces);
        const Kept kept = keep_first_roll(p, faces);
        first_[v] = pack_counts(kept.c, kept.n, kept.ones, kept.rerolled);
        rerolls_ = rerolls_ || kept.rerolled > 0;
    }
    if (rerolls_) return;
    result_.resize(numbers);
    for (uint64_t v = 0; v < numbers; ++v) {
        const uint16_t kept = first_[v];
        const int c = kept & 15, n = (kept >> kNormShift) & 15, ones = (kept >> kOnesShift) & 15;
        result_[v] = finish_[(c * kTableSide + n) * 3 + std::min(ones, 2)];
    }
}

int AttackRoller::roll_many(DiceSource& dice) const {
    int faces[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int left = rolled_; left > 0; left -= kGroup) {
        const int g = std::min(left, kGroup);
        add_faces(dice.digits(g), g, faces);
    }
    const Kept kept = keep_first_roll(profile_, faces);
    return finish(pack_counts(kept.c, kept.n, kept.ones, 0), kept.rerolled, dice);
}

}  // namespace mh::kt
