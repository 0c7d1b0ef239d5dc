// A round of several combats among several miniatures (deathburgh.md §7): exact and Monte Carlo.
//
// Combats are resolved in order; wounds carry over; a combat with a Wasted participant (0 wounds)
// is skipped and changes nothing. A miniature fights in Aggressive mode until it has taken part
// in a combat, then in Defensive mode, unless the combat fixes its mode.
//
// play_combat() below is the single statement of those rules. It is templated on where a combat's
// outcome comes from:
//   SampledOutcome (round.cpp):     real dice, one outcome per call (the Monte Carlo engine);
//   EnumeratedOutcome (round_exact.cpp): every outcome of the exact combat with its probability.
// Both get the outcome from the per-combat resolution (pool.hpp, combat.hpp, resolve() in rules.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "deathburgh/rules.hpp"

namespace mh::deathburgh {

constexpr int kMaxMiniatures = 20;
constexpr int kMaxCombats = 50;
constexpr int kMaxWounds = 20;
// The exact engine keeps the joint law of the wounds of every miniature in some combat; it
// refuses a round whose joint space (the product of their wounds + 1) is larger.
constexpr std::size_t kMaxExactStates = 1000000;

enum Mode : int { kAggressive = 0, kDefensive = 1 };
constexpr int kModeFromState = -1;  // the mode follows the miniature's state (Aggressive until it fought)

struct RoundCombat {
    int attacker = 0;  // miniature indices
    int defender = 1;
    int attacker_mode = kModeFromState;
    int defender_mode = kModeFromState;
    PoolSpec attacker_pool[2];  // by Mode
    PoolSpec defender_pool[2];
    OutcomeRules rules;
};

struct RoundSpec {
    std::vector<int> start_wounds;  // per miniature, 0..kMaxWounds
    std::vector<RoundCombat> combats;
};

// Where the round stands between two combats.
struct RoundState {
    int8_t wounds[kMaxMiniatures];
    uint32_t fought;  // bit i: miniature i has taken part in a combat this round
};

static_assert(kMaxMiniatures <= 32, "RoundState::fought holds one bit per miniature");

inline uint32_t miniature_bit(int i) { return uint32_t(1) << i; }

// Combat k of the round played from `state`: who can still fight, in which mode, and the wounds
// carried to the next combat. Reads and writes only the two participants. Calls
// emit(next_state, probability, fought) once per outcome: once with probability 1 and
// fought = false when the combat is skipped; otherwise once per outcome that `outcomes` gives,
// via outcomes.each(k, attacker_mode, defender_mode, combat, f), which calls f(Wounds, probability).
template <class Outcomes, class Emit>
void play_combat(const RoundCombat& c, std::size_t k, const RoundState& state, Outcomes& outcomes, Emit&& emit) {
    if (state.wounds[c.attacker] == 0 || state.wounds[c.defender] == 0) {  // a Wasted participant
        emit(state, 1.0, false);
        return;
    }
    const uint32_t both = miniature_bit(c.attacker) | miniature_bit(c.defender);
    const int mode_a =
        c.attacker_mode == kModeFromState ? int((state.fought & miniature_bit(c.attacker)) != 0) : c.attacker_mode;
    const int mode_d =
        c.defender_mode == kModeFromState ? int((state.fought & miniature_bit(c.defender)) != 0) : c.defender_mode;
    outcomes.each(k, mode_a, mode_d, c, [&](const Wounds& w, double p) {
        RoundState next = state;
        // Wounds beyond what a miniature has left are lost.
        next.wounds[c.defender] = int8_t(std::max(0, next.wounds[c.defender] - w.to_defender));
        next.wounds[c.attacker] = int8_t(std::max(0, next.wounds[c.attacker] - w.to_attacker));
        next.fought |= both;
        emit(next, p, true);
    });
}

// Layout of both engines' results: for each miniature, its wounds left 0..start (start + 1 bins),
// in order; then one bin per combat for it being fought (Monte Carlo: counts of samples; exact:
// probabilities).
std::size_t round_bins(const RoundSpec& spec);

void check_round(const RoundSpec& spec);

// Exact probabilities in the layout of round_bins. Throws std::invalid_argument when the
// miniatures in combat have more than kMaxExactStates joint wound states. Call without the GIL.
std::vector<double> round_exact(const RoundSpec& spec);

std::vector<uint64_t> round_monte_carlo(const RoundSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                        uint64_t chunk_end, int threads);

}  // namespace mh::deathburgh
