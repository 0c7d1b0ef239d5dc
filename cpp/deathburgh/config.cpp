#include "deathburgh/config.hpp"

#include <stdexcept>
#include <string>

namespace mh::deathburgh {

namespace {

void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("deathburgh: " + what);
}

}  // namespace

void check_pool(const PoolSpec& pool) {
    require(pool.target >= 2 && pool.target <= 6, "target out of range");
    require(pool.rolled >= 0 && pool.instant_crits >= 0 && pool.rolled + pool.instant_crits <= kMaxDice,
            "dice out of range");
    require(pool.auto_hits >= -1 && pool.auto_hits <= kMaxDice, "auto_hits out of range");
    require(pool.wound_cap >= 0 && pool.wound_cap <= kNoCap, "wound_cap out of range");
    require(pool.reroll == Reroll::none || pool.reroll == Reroll::all_fails || pool.reroll == Reroll::one_fail,
            "unknown reroll");
}

void check_rules(const OutcomeRules& rules) {
    require(rules.edition == Edition::web || rules.edition == Edition::alpha, "unknown edition");
    require(rules.reaction == Reaction::attack || rules.reaction == Reaction::dodge ||
                rules.reaction == Reaction::none,
            "unknown reaction");
}

void check_round(const RoundSpec& spec) {
    const int n = static_cast<int>(spec.start_wounds.size());
    if (n < 1 || n > kMaxMiniatures) throw std::invalid_argument("deathburgh: miniature count out of range");
    if (spec.combats.size() > std::size_t(kMaxCombats)) throw std::invalid_argument("deathburgh: too many combats");
    for (int w : spec.start_wounds) {
        if (w < 0 || w > kMaxWounds) throw std::invalid_argument("deathburgh: wounds out of range");
    }
    for (const RoundCombat& c : spec.combats) {
        if (c.attacker < 0 || c.attacker >= n || c.defender < 0 || c.defender >= n || c.attacker == c.defender) {
            throw std::invalid_argument("deathburgh: combat participants out of range");
        }
        for (int mode : {c.attacker_mode, c.defender_mode}) {
            if (mode != kModeFromState && mode != kAggressive && mode != kDefensive) {
                throw std::invalid_argument("deathburgh: unknown mode");
            }
        }
        for (int m = 0; m < 2; ++m) {
            check_pool(c.attacker_pool[m]);
            check_pool(c.defender_pool[m]);
        }
        check_rules(c.rules);
    }
}

}  // namespace mh::deathburgh
