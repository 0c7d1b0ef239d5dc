// The two engines over roll_batch's stages: exact (nested conditioning) and Monte Carlo.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "starcraft/batch.hpp"
#include "starcraft/layout.hpp"

namespace mh::starcraft {

// Probabilities of every stage of one batch, laid out by attack_layout.
std::vector<double> exact_attack(const BatchConfig& c);

// Probabilities of a sequence of batches, laid out by sequence_layout. Returns an empty vector when
// the propagation would take more than max_work steps (the caller then samples instead).
std::vector<double> exact_sequence(const UnitProfile& unit, const UnitState& start,
                                   const std::vector<BatchConfig>& batches, double max_work);

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` samples.
std::vector<uint64_t> sample_attack(const BatchConfig& c, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                    uint64_t chunk_end, int threads);
std::vector<uint64_t> sample_sequence(const UnitProfile& unit, const UnitState& start,
                                      const std::vector<BatchConfig>& batches, uint64_t seed, uint64_t total,
                                      uint64_t chunk_begin, uint64_t chunk_end, int threads);

// Scripted dice for sc.resolve: a list of faces consumed in order, or one face for every die.
class ScriptedDice {
public:
    ScriptedDice(const std::vector<int>& faces, int every_face) : faces_(faces), every_face_(every_face) {}
    // Throws std::invalid_argument (a ValueError in Python) when the list runs out.
    int d6() {
        if (every_face_ > 0) {
            ++used_;
            return every_face_;
        }
        if (used_ >= faces_.size())
            throw std::invalid_argument("faces: ran out after " + std::to_string(faces_.size()) +
                                        " dice; the batch rolls more (hit dice, Surge die, Armour dice, Evade dice)");
        return faces_[used_++];
    }
    std::size_t used() const { return used_; }

private:
    const std::vector<int>& faces_;
    int every_face_;
    std::size_t used_ = 0;
};

}  // namespace mh::starcraft
