// The exact shooting engine: every retained attack (crits, norms) × every retained save (crits,
// norms), resolved by the functions of resolve.cpp; Saintly Relics and Feel No Pain expanded as exact
// branches; rounds convolved with the relic budget (two per battle) as state.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "killteam/dice/exact.hpp"
#include "killteam/shoot/exact.hpp"
#include "killteam/shoot/resolve.hpp"

namespace mh::kt {

namespace {

struct SaveOutcome {
    Retained saves;
    double prob;
};

// The non-zero saves of a defence-dice table (at most 10 for 3 dice).
int save_outcomes(const RetainedTable& table, SaveOutcome* out) {
    int count = 0;
    for (int sc = 0; sc <= kDefenceDice; ++sc)
        for (int sn = 0; sc + sn <= kDefenceDice; ++sn) {
            const double p = table[sc * kTableSide + sn];
            if (p > 0.0) out[count++] = {{sc, sn}, p};
        }
    return count;
}

// attack_distribution by value of its profile, per thread. Sweeps and batches resolve many shots
// with the same weapon or the same defence dice (a handful of saves and covers), and the table costs
// more to build than to look up. The entries are the very tables attack_distribution returns.
class DistributionCache {
public:
    static constexpr std::size_t kMaxEntries = 512;  // about 0.7 MB per thread at most

    // Call once per shot before any lookup: the references lookup hands out stay valid until then.
    void trim() {
        if (tables_.size() >= kMaxEntries) tables_.clear();
    }

    const RetainedTable& lookup(const AttackProfile& p) {
        const Key key = dice_table_key(p);
        auto it = tables_.find(key);
        if (it == tables_.end()) it = tables_.emplace(key, attack_distribution(p)).first;
        return it->second;
    }

private:
    using Key = decltype(dice_table_key(AttackProfile{}));
    using Hash = fields::KeyHash;

    std::unordered_map<Key, RetainedTable, Hash> tables_;
};

thread_local DistributionCache distributions;

// allocate_blocks' unblocked dice by (hits, saves), per thread, for each distinct set of the
// configuration fields it reads; each cell is filled on first use. Shots that differ only in the
// dice or the defender's save share the table (a sweep's cells mostly do).
class BlocksCache {
public:
    static constexpr std::size_t kMaxEntries = 64;  // about 5 KB each

    void trim() {
        if (tables_.size() >= kMaxEntries) tables_.clear();
    }

    // The table for cfg; valid until the next trim().
    struct Table {
        struct Cell {
            int8_t crits = -1;  // -1: not worked out yet
            int8_t norms = 0;
        };
        std::array<Cell, kTableSide * kTableSide * kSaveSide * kSaveSide> cells{};

        Retained unblocked(const ShootConfig& cfg, const Retained& hits, const Retained& saves) {
            Cell& cell = cells[((hits.crits * kTableSide + hits.norms) * kSaveSide + saves.crits) * kSaveSide + saves.norms];
            if (cell.crits < 0) {
                const Blocks b = allocate_blocks(cfg, hits, saves);
                cell = {static_cast<int8_t>(b.unblocked.crits), static_cast<int8_t>(b.unblocked.norms)};
            }
            return {cell.crits, cell.norms};
        }
    };

    Table& table(const ShootConfig& cfg) { return tables_[blocks_key(cfg)]; }

private:
    using Key = decltype(blocks_key(ShootConfig{}));
    using Hash = fields::KeyHash;
    std::unordered_map<Key, Table, Hash> tables_;
};

thread_local BlocksCache block_tables;

// P(damage, Feel No Pain instances) of one attack, flattened as [damage * instance_side + instances].
struct DamageInstances {
    int instance_side = 0;
    std::vector<double> prob;

    DamageInstances(int max_damage, int max_instances)
        : instance_side(max_instances + 1), prob(static_cast<std::size_t>(max_damage + 1) * instance_side, 0.0) {}

    void add(const AttackDamage& a, double p) { prob[a.damage * instance_side + a.instances] += p; }

    // Feel No Pain: each successful roll removes 1. Per damage instance every instance deals at
    // least 1, so the floor at 0 never acts; per hit (the reference) the attack's total is floored.
    std::vector<double> after_feel_no_pain(int feel_no_pain) const {
        const int max_damage = static_cast<int>(prob.size()) / instance_side - 1;
        std::vector<double> out(max_damage + 1, 0.0);
        const double q = feel_no_pain > 0 ? (7 - feel_no_pain) / 6.0 : 0.0;
        if (q == 0.0) {
            for (int damage = 0; damage <= max_damage; ++damage)
                for (int k = 0; k < instance_side; ++k) {
                    const double p = prob[damage * instance_side + k];
                    if (p != 0.0) out[damage] += p;
                }
            return out;
        }
        // Binomial(k, q) successes, built by the recurrence on (k choose s): the terms depend on k
        // alone, so they are worked out once per k rather than once per (damage, k) cell.
        std::vector<double> terms(static_cast<std::size_t>(instance_side) * instance_side);
        for (int k = 0; k < instance_side; ++k) {
            double term = std::pow(1.0 - q, k);
            for (int s = 0; s <= k; ++s) {
                terms[k * instance_side + s] = term;
                term = term * (k - s) / (s + 1) * q / (1.0 - q);
            }
        }
        for (int damage = 0; damage <= max_damage; ++damage) {
            for (int k = 0; k < instance_side; ++k) {
                const double p = prob[damage * instance_side + k];
                if (p == 0.0) continue;
                const double* term = &terms[k * instance_side];
                for (int s = 0; s <= k; ++s) out[std::max(0, damage - s)] += p * term[s];
            }
        }
        return out;
    }
};

std::vector<double> trimmed(std::vector<double> v) {
    while (v.size() > 1 && v.back() == 0.0) v.pop_back();
    return v;
}

// acc += a ⊛ b (acc must be large enough).
void convolve_into(std::vector<double>& acc, const std::vector<double>& a, const std::vector<double>& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] == 0.0) continue;
        for (std::size_t j = 0; j < b.size(); ++j) acc[i + j] += a[i] * b[j];
    }
}

// Hot (resolve.hpp hot_damage): each round's roll, one D6, convolved over the rounds.
std::vector<double> self_damage(const ShootConfig& cfg) {
    if (!cfg.hot) return {};
    std::vector<double> one(kMaxHotDamage + 1, 0.0);
    for (int roll = 1; roll <= 6; ++roll) one[hot_damage(cfg, roll)] += 1.0 / 6.0;
    std::vector<double> total = one;
    for (int r = 1; r < cfg.rounds; ++r) {
        std::vector<double> next(total.size() + one.size() - 1, 0.0);
        convolve_into(next, total, one);
        total = std::move(next);
    }
    return total;
}

}  // namespace

ShootExact shoot_exact(const ShootConfig& cfg) {
    ShootExact out;
    distributions.trim();
    block_tables.trim();
    BlocksCache::Table& blocks = block_tables.table(cfg);
    out.attack = distributions.lookup(attack_against(cfg));
    const int dice = cfg.attack.dice;
    out.self_damage = self_damage(cfg);

    // The defence dice depend on the attack only through "was a crit retained" (Piercing Crits).
    SaveOutcome without_crit[10], with_crit[10];
    const int n_without =
        save_outcomes(distributions.lookup(defence_profile(cfg, defence_dice(cfg, {0, 0}))), without_crit);
    const int n_with = save_outcomes(distributions.lookup(defence_profile(cfg, defence_dice(cfg, {1, 0}))), with_crit);

    // Steps 1-6 are deterministic given the dice: weight of (retained crits, unblocked crits, norms),
    // indexed by counts 0..dice only (a stack table: no allocation, and only the used part zeroed).
    const int D = dice + 1;
    std::array<double, kTableSide * kTableSide * kTableSide> unblocked;
    std::fill_n(unblocked.begin(), D * D * D, 0.0);
    for (int c = 0; c <= dice; ++c) {
        for (int n = 0; c + n <= dice; ++n) {
            const double pa = out.attack[c * kTableSide + n];
            if (pa == 0.0) continue;
            const SaveOutcome* saves = c > 0 ? with_crit : without_crit;
            const int n_saves = c > 0 ? n_with : n_without;
            for (int s = 0; s < n_saves; ++s) {
                const double p = pa * saves[s].prob;
                out.saves[saves[s].saves.crits * kSaveSide + saves[s].saves.norms] += p;
                const Retained u = blocks.unblocked(cfg, {c, n}, saves[s].saves);
                unblocked[(c * D + u.crits) * D + u.norms] += p;
            }
        }
    }

    // Steps 7-9 per attack, in three flavours: relic not available (off), available but nothing
    // ignored (kept), available and one die ignored (spent); the last two only with relics.
    const bool relics = cfg.saintly_relics > 0;
    const int max_damage = max_attack_damage(cfg);
    const int max_instances = 2 * dice;
    DamageInstances off(max_damage, max_instances);
    DamageInstances kept(relics ? max_damage : 0, relics ? max_instances : 0);
    DamageInstances spent(relics ? max_damage : 0, relics ? max_instances : 0);
    const double relic_p = relic_chance(cfg.saintly_relics);
    // P(no relic roll succeeds on `count` dice), by count: the same std::pow values, worked out once
    std::array<double, kMaxDice + 1> relic_stay{};
    if (relics)
        for (int count = 0; count <= kMaxDice; ++count) relic_stay[count] = std::pow(1.0 - relic_p, count);
    for (int c = 0; c <= dice; ++c) {
        for (int uc = 0; uc <= c; ++uc) {
            for (int un = 0; uc + un <= dice; ++un) {
                const double w = unblocked[(c * D + uc) * D + un];
                if (w == 0.0) continue;
                const Retained u{uc, un};
                off.add(attack_damage(cfg, c, u, RelicPick::None), w);
                if (!relics) continue;
                // Each damaging die in turn until one roll succeeds: at most one ignored per attack.
                const RelicOrder order = relic_order(cfg, u);
                double reach = 1.0;
                for (int g = 0; g < order.groups; ++g) {
                    const double stay = relic_stay[order.count[g]];
                    spent.add(attack_damage(cfg, c, u, order.kind[g]), w * reach * (1.0 - stay));
                    reach *= stay;
                }
                kept.add(attack_damage(cfg, c, u, RelicPick::None), w * reach);
            }
        }
    }

    const std::vector<double> per_attack = trimmed(off.after_feel_no_pain(cfg.feel_no_pain));
    const std::size_t total_size = static_cast<std::size_t>(cfg.rounds) * max_damage + 1;
    if (!relics) {
        // One round: {1} convolved with the attack is the attack itself (1 * p and 0 + p are exact).
        std::vector<double> dist = per_attack;
        for (int r = 1; r < cfg.rounds; ++r) {
            std::vector<double> next(dist.size() + per_attack.size() - 1, 0.0);
            convolve_into(next, dist, per_attack);
            dist = std::move(next);
        }
        dist.resize(total_size, 0.0);
        out.damage = std::move(dist);
        return out;
    }

    // Relic budget as state: by_budget[b] = P(total damage so far, b ignores left).
    const std::vector<double> kept_attack = trimmed(kept.after_feel_no_pain(cfg.feel_no_pain));
    const std::vector<double> spent_attack = trimmed(spent.after_feel_no_pain(cfg.feel_no_pain));
    constexpr int kRelicsPerBattle = 2;
    std::vector<double> by_budget[kRelicsPerBattle + 1];
    by_budget[kRelicsPerBattle] = {1.0};
    for (int r = 0; r < cfg.rounds; ++r) {
        std::vector<double> next[kRelicsPerBattle + 1];
        for (auto& v : next) v.assign(total_size, 0.0);
        for (int b = 0; b <= kRelicsPerBattle; ++b) {
            const std::vector<double>& dist = by_budget[b];
            if (dist.empty()) continue;
            if (b == 0) {
                convolve_into(next[0], dist, per_attack);
            } else {
                convolve_into(next[b], dist, kept_attack);
                convolve_into(next[b - 1], dist, spent_attack);
            }
        }
        for (int b = 0; b <= kRelicsPerBattle; ++b) {
            const bool any = std::any_of(next[b].begin(), next[b].end(), [](double p) { return p != 0.0; });
            by_budget[b] = any ? trimmed(std::move(next[b])) : std::vector<double>{};
        }
    }
    out.damage.assign(total_size, 0.0);
    for (const auto& dist : by_budget)
        for (std::size_t i = 0; i < dist.size(); ++i) out.damage[i] += dist[i];
    return out;
}

ShotTables shot_tables(const ShootExact& exact, int dice) {
    ShotTables t;
    std::size_t used = exact.damage.size();
    while (used > 1 && exact.damage[used - 1] == 0.0) --used;
    t.damage.assign(exact.damage.begin(), exact.damage.begin() + static_cast<std::ptrdiff_t>(used));
    t.side = std::min(dice + 1, kTableSide);
    t.attack.resize(static_cast<std::size_t>(t.side) * t.side);
    for (int c = 0; c < t.side; ++c)
        for (int n = 0; n < t.side; ++n)
            t.attack[static_cast<std::size_t>(c * t.side + n)] =
                exact.attack[static_cast<std::size_t>(c * kTableSide + n)];
    t.saves = exact.saves;
    t.self_damage = trimmed(exact.self_damage);
    return t;
}

ShotTables exact_shot_tables(const ShootConfig& cfg) { return shot_tables(shoot_exact(cfg), cfg.attack.dice); }

}  // namespace mh::kt
