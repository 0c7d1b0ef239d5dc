// Dice drawn from an Rng without bias and without wasting random bits.
//
// One 64-bit draw yields a uniform number below 6^24 (rejection keeps it exact), and that number
// is 24 independent d6 in base 6. About 2.7 bits per die, one generator call per 24 dice.
// digits(k) hands out the next k of those dice at once as one base-6 number, for table lookups.
#pragma once
#include <array>
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

    // The next k dice (1 <= k <= kMaxDigits) as one number below 6^k: digit i (base 6) is the i-th
    // die's face - 1. Exactly the dice k calls of d6() would give, in the same order, so callers can
    // look up what a handful of dice do in one step without changing the stream.
    uint64_t digits(int k) {
        if (left_ >= k) return take(k);
        const int have = left_;
        const uint64_t low = pool_;  // the draw's last `have` dice (pool_ < 6^left_ always)
        refill();
        return low + kPow6[have] * take(k - have);
    }

    // The same for a count known when compiling: the draw's next K dice split off by constants,
    // without the lookup by k (a hot loop reading a fixed number of dice stays inline).
    template <int K>
    uint64_t digits() {
        static_assert(K >= 1 && K <= kMaxDigits, "at most kMaxDigits dice at once");
        if (left_ < K) return digits(K);
        left_ -= K;
        return split<kPow6[K]>();
    }

    static constexpr int kMaxDigits = 12;
    static constexpr std::array<uint64_t, kMaxDigits + 1> kPow6 = [] {
        std::array<uint64_t, kMaxDigits + 1> p{};
        p[0] = 1;
        for (int i = 1; i <= kMaxDigits; ++i) p[i] = p[i - 1] * 6;
        return p;
    }();

    // A d3 face, 1..3 (a d6 halved, rounded up, as the games roll it).
    int d3() { return (d6() + 1) / 2; }

    // Uniform in [0, n) straight from the generator, for anything that is not a die.
    uint64_t below(uint64_t n) { return rng_.below(n); }

    Rng& rng() { return rng_; }

private:
    static constexpr uint64_t kSix24 = 4738381338321616896ULL;  // 6^24 < 2^64
    // The next k dice of the current draw (k <= left_). A switch, so that every division is by a
    // constant (a multiply) rather than a runtime divide.
    uint64_t take(int k) {
        left_ -= k;
        switch (k) {
            case 1: return split<kPow6[1]>();
            case 2: return split<kPow6[2]>();
            case 3: return split<kPow6[3]>();
            case 4: return split<kPow6[4]>();
            case 5: return split<kPow6[5]>();
            case 6: return split<kPow6[6]>();
            case 7: return split<kPow6[7]>();
            case 8: return split<kPow6[8]>();
            case 9: return split<kPow6[9]>();
            case 10: return split<kPow6[10]>();
            case 11: return split<kPow6[11]>();
            default: return split<kPow6[12]>();
        }
    }
    template <uint64_t M>
    uint64_t split() {
        const uint64_t v = pool_ % M;
        pool_ /= M;
        return v;
    }
    void refill() {
        pool_ = rng_.below(kSix24);
        left_ = 24;
    }
    Rng& rng_;
    uint64_t pool_ = 0;
    int left_ = 0;
};

}  // namespace mh
