// A round of several combats among several miniatures (docs/rules/deathburgh.md §7), Monte Carlo.
//
// Combats are resolved in order; wounds carry over; a combat with a Wasted participant (0 wounds)
// is skipped and changes nothing. A miniature fights in Aggressive mode until it has taken part
// in a combat, then in Defensive mode, unless the combat fixes its mode. The exact engine for
// rounds lives in Python and calls combat_exact() once per pair of modes.
#pragma once
#include <cstdint>
#include <vector>

#include "deathburgh/rules.hpp"

namespace mh::deathburgh {

constexpr int kMaxMiniatures = 20;
constexpr int kMaxCombats = 50;
constexpr int kMaxWounds = 20;

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

// Layout of the counts: for each miniature, its wounds left 0..start (start + 1 bins), in order;
// then one bin per combat counting the samples where it was fought.
std::size_t round_bins(const RoundSpec& spec);

void check_round(const RoundSpec& spec);

std::vector<uint64_t> round_monte_carlo(const RoundSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                        uint64_t chunk_end, int threads);

}  // namespace mh::deathburgh
