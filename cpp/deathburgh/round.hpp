// A round of several combats among several miniatures (docs/rules/deathburgh.md §7): exact and Monte Carlo.
//
// Combats are resolved in order; wounds carry over; a combat with a Wasted participant (0 wounds)
// is skipped and changes nothing. A miniature fights in Aggressive mode until it has taken part
// in a combat, then in Defensive mode, unless the combat fixes its mode.
//
// play_combat() below is the single statement of those rules. It is templated on where a combat's
// outcome comes from:
//   SampledOutcome (round_monte_carlo.cpp): real dice, one outcome per call (the Monte Carlo engine);
//   EnumeratedOutcome (round_exact.cpp):     every outcome of the exact combat with its probability.
// Both get the outcome from the per-combat resolution (pool.hpp, exact.hpp, resolve.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "deathburgh/config.hpp"
#include "deathburgh/resolve.hpp"

namespace mh::deathburgh {

// The exact engine keeps the joint law of the wounds of every miniature in some combat; it
// refuses a round whose joint space (the product of their wounds + 1) is larger.
constexpr std::size_t kMaxExactStates = 1000000;

// Where the round stands between two combats.
struct RoundState {
    int wounds[kMaxMiniatures];
    uint32_t fought;  // bit i: miniature i has taken part in a combat this round
};

static_assert(kMaxMiniatures <= 32, "RoundState::fought holds one bit per miniature");

inline uint32_t miniature_bit(int i) { return uint32_t(1) << i; }

// What one outcome of a combat leaves: its participants' wounds and who has fought.
struct CombatEnd {
    int attacker_wounds;
    int defender_wounds;
    uint32_t fought;
};

inline void apply_end(const RoundCombat& c, const CombatEnd& end, RoundState& state) {
    state.wounds[c.attacker] = end.attacker_wounds;
    state.wounds[c.defender] = end.defender_wounds;
    state.fought = end.fought;
}

// Combat k of the round played from `state`: who can still fight, in which mode, and the wounds
// carried to the next combat. Calls emit(CombatEnd, probability, fought) once per outcome: once
// with probability 1 and fought = false when the combat is skipped (nothing changes, not even
// modes); otherwise once per outcome that `outcomes` gives, via
// outcomes.each(k, attacker_mode, defender_mode, combat, f), which calls f(Wounds, probability).
template <class Outcomes, class Emit>
void play_combat(const RoundCombat& c, std::size_t k, const RoundState& state, Outcomes& outcomes, Emit&& emit) {
    const int w_a = state.wounds[c.attacker];
    const int w_d = state.wounds[c.defender];
    if (w_a == 0 || w_d == 0) {  // a Wasted participant
        emit(CombatEnd{w_a, w_d, state.fought}, 1.0, false);
        return;
    }
    const uint32_t bit_a = miniature_bit(c.attacker);
    const uint32_t bit_d = miniature_bit(c.defender);
    const int mode_a = c.attacker_mode == kModeFromState ? int((state.fought & bit_a) != 0) : c.attacker_mode;
    const int mode_d = c.defender_mode == kModeFromState ? int((state.fought & bit_d) != 0) : c.defender_mode;
    const uint32_t fought = state.fought | bit_a | bit_d;
    outcomes.each(k, mode_a, mode_d, c, [&](const Wounds& w, double p) {
        // Wounds beyond what a miniature has left are lost.
        emit(CombatEnd{std::max(0, w_a - w.to_attacker), std::max(0, w_d - w.to_defender), fought}, p, true);
    });
}

// Exact probabilities in the layout of round_bins. Throws std::invalid_argument when the
// miniatures in combat have more than kMaxExactStates joint wound states. Call without the GIL.
std::vector<double> round_exact(const RoundSpec& spec);

std::vector<uint64_t> round_monte_carlo(const RoundSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                        uint64_t chunk_end, int threads);

}  // namespace mh::deathburgh
