// Table-driven attack dice for the Monte Carlo engines (docs/rules/killteam.md §8.1).
//
// roll_attack (monte_carlo.cpp) classifies one die at a time; here the rolled dice are read from the
// stream as one base-6 number (DiceSource::digits) and a table built once per profile gives what
// they retain.
// The same dice are read in the same order as roll_attack reads them, and every entry of the
// tables comes from the same pipeline (the reroll choice and finish_roll), so the retained dice of
// a given stream are exactly roll_attack's.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/dice.hpp"
#include "killteam/dice/config.hpp"

namespace mh::kt {

class AttackRoller {
public:
    explicit AttackRoller(const AttackProfile& p);

    // One random roll as crits * kTableSide + norms (the index of RetainedTable).
    int roll(DiceSource& dice) const {
        if (direct_) {
            const uint64_t v = rolled_ ? dice.digits(rolled_) : 0;
            if (!rerolls_) return result_[v];
            const uint16_t kept = first_[v];
            return finish(kept, kept >> kRerolledShift, dice);
        }
        return roll_many(dice);
    }

    // Up to this many rolled dice are looked up as one number (6^5 = 7776 entries).
    static constexpr int kDirectDice = 5;

private:
    // Packed counts: crits, norms, 1s in 4 bits each (at most 12 dice), then the dice to reroll.
    static constexpr int kNormShift = 4, kOnesShift = 8, kRerolledShift = 12;
    static constexpr int kGroup = 4;  // rerolled dice are classified in groups of up to 4

    // Adds the `rerolled` dice to the kept counts and runs the rest of the pipeline.
    int finish(uint32_t kept, int rerolled, DiceSource& dice) const {
        uint32_t counts = kept & 0xFFF;
        while (rerolled > 0) {
            const int g = rerolled < kGroup ? rerolled : kGroup;
            counts += classify_[g][dice.digits(g)];
            rerolled -= g;
        }
        const int c = counts & 15, n = (counts >> kNormShift) & 15, ones = (counts >> kOnesShift) & 15;
        return finish_[(c * kTableSide + n) * 3 + (ones < 2 ? ones : 2)];
    }
    int roll_many(DiceSource& dice) const;  // more than kDirectDice rolled dice

    AttackProfile profile_;
    int rolled_ = 0;         // dice rolled (not auto-retained)
    bool direct_ = false;    // rolled_ <= kDirectDice
    bool rerolls_ = false;   // some first roll rerolls dice
    std::vector<uint8_t> result_;   // direct, no reroll: the first roll's number -> retained index
    std::vector<uint16_t> first_;   // direct: the first roll's number -> kept counts and dice to reroll
    std::array<std::vector<uint16_t>, kGroup + 1> classify_;  // g dice' number -> their counts
    std::vector<uint8_t> finish_;   // (crits, norms, min(1s, 2)) after rerolls -> retained index
};

}  // namespace mh::kt
