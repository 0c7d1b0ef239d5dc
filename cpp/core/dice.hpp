// Dice drawn from an Rng without bias and without wasting random bits.
//
// One 64-bit draw yields a uniform number below 6^24 (rejection keeps it exact), and that number
// is 24 independent d6 in base 6. About 2.7 bits per die, one generator call per 24 dice.
#pragma once
#include <cstdint>

#include "core/rng.hpp"

namespace mh {

class DiceSource {
public:
    explicit DiceSource(Rng& rng) : rng_(rng) {}

    // A d6 face, 1..6.
    int d6() {
        if (left_ == 0) refill();
        --left_;
        const int face = static_cast<int>(pool_ % 6);
        pool_ /= 6;
        return face + 1;
    }

    // A d3 face, 1..3 (a d6 halved, rounded up, as the games roll it).
    int d3() { return (d6() + 1) / 2; }

    // Uniform in [0, n) straight from the generator, for anything that is not a die.
    uint64_t below(uint64_t n) { return rng_.below(n); }

    Rng& rng() { return rng_; }

private:
    static constexpr uint64_t kSix24 = 4738381338321616896ULL;  // 6^24 < 2^64
    void refill() {
        pool_ = rng_.below(kSix24);
        left_ = 24;
    }
    Rng& rng_;
    uint64_t pool_ = 0;
    int left_ = 0;
};

}  // namespace mh
