// Exact distributions of one batch and of a sequence of batches (docs/rules/starcraft.md §7).
//
// One batch: the hit stage (resolve.hpp hit_stage, shared with Monte Carlo) gives (H', Critical Hit
// dice); for each Surge value the bypass b and the Armour dice A = H' - b follow; F ~ Bin(A, q)
// through Tough gives the damage pool b + F'; Evade thins the pool binomially. Weights are merged at
// every stage, so the cost is O(dice^3) at worst.
#include <cstddef>
#include <utility>
#include <vector>

#include "core/interrupt.hpp"
#include "starcraft/allocation.hpp"
#include "starcraft/exact.hpp"
#include "starcraft/layout.hpp"
#include "starcraft/resolve.hpp"
#include "starcraft/steps.hpp"

namespace mh::starcraft {

namespace {

// pmf rows of Bin(n, p) for n = 0..n_max (row n has n + 1 entries), built by adding one die at a
// time, in one triangular table (row n starts at n (n + 1) / 2): one allocation instead of a row each.
class BinomialRows {
public:
    BinomialRows(int n_max, double p)
        : cells_(static_cast<std::size_t>(n_max + 1) * static_cast<std::size_t>(n_max + 2) / 2, 0.0) {
        cells_[0] = 1.0;
        for (int n = 1; n <= n_max; ++n) {
            const double* prev = (*this)[n - 1];
            double* row = cells_.data() + offset(n);
            for (int k = 0; k < n; ++k) {
                row[k] += prev[k] * (1.0 - p);
                row[k + 1] += prev[k] * p;
            }
        }
    }
    const double* operator[](int n) const { return cells_.data() + offset(n); }

private:
    static std::size_t offset(int n) { return static_cast<std::size_t>(n) * static_cast<std::size_t>(n + 1) / 2; }
    std::vector<double> cells_;
};

// One range group under rules.critical_hit = "natural": P(h hits, x dice showing the Critical Hit
// face), where x counts hits when that face hits at this target and misses otherwise.
struct NaturalGroup {
    int n = 0;
    bool face_hits = false;
    std::vector<double> p;  // index h * (n + 1) + x
};

NaturalGroup natural_group(int n, int target, int face) {
    NaturalGroup g;
    g.n = n;
    g.face_hits = face >= target;
    g.p.assign(static_cast<std::size_t>(n + 1) * (n + 1), 0.0);
    const double p_hit = p_success(target);
    const BinomialRows hits(n, p_hit);
    // Given the hits (or misses), each shows the face with probability (1/6) / P(hit) (or P(miss)).
    const BinomialRows shows(n, (1.0 / 6.0) / (g.face_hits ? p_hit : 1.0 - p_hit));
    for (int h = 0; h <= n; ++h) {
        const int pool = g.face_hits ? h : n - h;
        for (int x = 0; x <= pool; ++x) g.p[static_cast<std::size_t>(h) * (n + 1) + x] = hits[n][h] * shows[pool][x];
    }
    return g;
}

// Joint distribution of H' (Armour Pool after Precision) and the Critical Hit dice, as
// joint[h' * crit_size + crit], every cell placed by hit_stage() as the Monte Carlo engine places a roll.
// crit_size is n + 1 when Critical Hit counts natural faces, else critical_hit + 1 (a fixed count).
std::vector<double> hit_stage_law(const BatchConfig& c, int& crit_size) {
    const int n = c.dice();
    const bool natural = c.roll_hits && c.crit_face() > 0;
    crit_size = natural ? n + 1 : c.critical_hit + 1;
    std::vector<double> joint(static_cast<std::size_t>(n + 1) * crit_size, 0.0);
    auto add = [&](const HitCount& count, double p) {
        const HitStage s = hit_stage(c, count);
        joint[static_cast<std::size_t>(s.pool) * crit_size + s.crit] += p;
    };
    if (!c.roll_hits) {
        add(HitCount{n, 0, 0}, 1.0);
        return joint;
    }
    if (!natural) {
        const BinomialRows normal_rows(c.dice_normal, p_success(c.hit_target_normal));
        const BinomialRows long_rows(c.dice_long, p_success(c.hit_target_long));
        const double* normal = normal_rows[c.dice_normal];
        const double* longr = long_rows[c.dice_long];
        for (int a = 0; a <= c.dice_normal; ++a)
            for (int b = 0; b <= c.dice_long; ++b) add(HitCount{a + b, 0, 0}, normal[a] * longr[b]);
        return joint;
    }
    const NaturalGroup g1 = natural_group(c.dice_normal, c.hit_target_normal, c.crit_face());
    const NaturalGroup g2 = natural_group(c.dice_long, c.hit_target_long, c.crit_face());
    for (int h1 = 0; h1 <= g1.n; ++h1)
        for (int x1 = 0; x1 <= g1.n; ++x1) {
            const double p1 = g1.p[static_cast<std::size_t>(h1) * (g1.n + 1) + x1];
            if (p1 == 0.0) continue;
            for (int h2 = 0; h2 <= g2.n; ++h2)
                for (int x2 = 0; x2 <= g2.n; ++x2) {
                    const double p2 = g2.p[static_cast<std::size_t>(h2) * (g2.n + 1) + x2];
                    if (p2 == 0.0) continue;
                    HitCount count;
                    count.hits = h1 + h2;
                    count.hits_showing_c = (g1.face_hits ? x1 : 0) + (g2.face_hits ? x2 : 0);
                    count.misses_showing_c = (g1.face_hits ? 0 : x1) + (g2.face_hits ? 0 : x2);
                    add(count, p1 * p2);
                }
        }
    return joint;
}

// The Surge values and their probabilities (one die per batch, a fixed count, or none).
std::vector<std::pair<int, double>> surge_stage(const BatchConfig& c) {
    const SurgeKind kind = c.surge_kind;
    if (kind == SurgeKind::none) return {{0, 1.0}};
    if (kind == SurgeKind::fixed) return {{c.surge_fixed, 1.0}};
    std::vector<double> p(7, 0.0);
    for (int face = 1; face <= 6; ++face) p[surge_value(kind, face)] += 1.0 / 6.0;
    std::vector<std::pair<int, double>> out;
    for (int s = 0; s <= 6; ++s)
        if (p[s] > 0.0) out.emplace_back(s, p[s]);
    return out;
}

}  // namespace

std::vector<double> exact_attack(const BatchConfig& c) {
    const AttackLayout l = attack_layout(c);
    const int n = l.dice;
    std::vector<double> out(l.size, 0.0);

    int crit_size = 1;
    const std::vector<double> hits = hit_stage_law(c, crit_size);
    const auto surges = surge_stage(c);
    for (const auto& [s, ps] : surges) out[l.surge + s] += ps;

    // Weight of each (bypass b, Armour dice A).
    const std::size_t side = static_cast<std::size_t>(n) + 1;
    std::vector<double> pool(side * side, 0.0);
    for (int h = 0; h <= n; ++h)
        for (int k = 0; k < crit_size; ++k) {
            const double ph = hits[static_cast<std::size_t>(h) * crit_size + k];
            if (ph == 0.0) continue;
            out[l.hits + h] += ph;
            for (const auto& [s, ps] : surges) {
                const int b = bypass(h, s, k, c.dodge);
                pool[static_cast<std::size_t>(b) * side + (h - b)] += ph * ps;
                out[l.bypass + b] += ph * ps;
            }
        }

    // Armour: F ~ Bin(A, q_fail), then Tough. tough_rows[A][f'] = P(F' = f' | A dice), rows laid
    // out as BinomialRows lays them out.
    const BinomialRows fails(n, 1.0 - p_success(c.armour_target));
    std::vector<double> tough_cells(side * (side + 1) / 2, 0.0);
    auto tough_row = [&](int a) { return tough_cells.data() + static_cast<std::size_t>(a) * (a + 1) / 2; };
    for (int a = 0; a <= n; ++a) {
        double* row = tough_row(a);
        for (int f = 0; f <= a; ++f) row[tough(f, c.tough)] += fails[a][f];
    }
    std::vector<double> damage_pool(side, 0.0);
    for (int b = 0; b <= n; ++b)
        for (int a = 0; a + b <= n; ++a) {
            const double w = pool[static_cast<std::size_t>(b) * side + a];
            if (w == 0.0) continue;
            const double* row = tough_row(a);
            for (int f = 0; f <= a; ++f) {
                if (row[f] == 0.0) continue;
                out[l.armour_fails + f] += w * row[f];
                damage_pool[b + f] += w * row[f];
            }
        }

    // Evade: each pool die stays with probability 1 - p(evade).
    const double keep = c.evade ? 1.0 - p_success(c.evade_target) : 1.0;
    const BinomialRows kept(n, keep);
    for (int d = 0; d <= n; ++d) {
        out[l.damage_pool + d] += damage_pool[d];
        if (damage_pool[d] == 0.0) continue;
        for (int k = 0; k <= d; ++k) out[l.inflicting + k] += damage_pool[d] * kept[d][k];
    }
    return out;
}

AttackTables exact_attack_tables(const AttackCase& a) { return attack_tables(a, exact_attack(a.config)); }

std::vector<double> exact_sequence(const UnitProfile& unit, const UnitState& start,
                                   const std::vector<BatchConfig>& batches, double max_work) {
    const SequenceLayout l = sequence_layout(unit, start, batches);
    std::vector<double> out(l.size, 0.0);
    // Per unit state, the distribution of the total damage so far (dense, from 0).
    std::vector<std::vector<double>> current(l.state_size), next(l.state_size);
    current[l.state_index(start)] = {1.0};
    double work = 0.0;

    for (std::size_t bi = 0; bi < batches.size(); ++bi) {
        const BatchConfig& c = batches[bi];
        const BatchSlots& slot = l.batches[bi];
        const AttackLayout al = attack_layout(c);
        const std::vector<double> stages = exact_attack(c);
        for (auto& v : next) v.clear();

        for (std::size_t si = 0; si < l.state_size; ++si) {
            check_interrupt();
            const auto& totals = current[si];
            if (totals.empty()) continue;
            double mass = 0.0;
            for (double p : totals) mass += p;
            const UnitState state = l.state_at(si);
            auto add_into = [&](std::vector<double>& dst, int shift, double scale) {
                if (dst.size() < totals.size() + shift) dst.resize(totals.size() + shift, 0.0);
                for (std::size_t t = 0; t < totals.size(); ++t) dst[t + shift] += scale * totals[t];
            };
            if (state.models == 0) {  // a batch against a destroyed unit does nothing
                add_into(next[si], 0, 1.0);
                out[slot.damage] += mass;
                out[slot.casualties] += mass;
                out[slot.marker + state.marker] += mass;
                out[slot.destroyed] += mass;
                continue;
            }
            for (int k = 0; k <= al.dice; ++k) {
                const double pk = stages[al.inflicting + k];
                if (pk == 0.0) continue;
                work += static_cast<double>(totals.size());
                if (work > max_work) return {};
                const int damage = k * c.damage_per_die;
                const Allocation a = allocate(unit, state, damage, c.alloc);
                add_into(next[l.state_index(a.state)], damage, pk);
                const double w = pk * mass;
                out[slot.damage + damage] += w;
                out[slot.casualties + a.casualties] += w;
                out[slot.marker + a.state.marker] += w;
                if (a.destroyed) out[slot.destroyed] += w;
                if (a.shield_lost) out[slot.shield_lost] += w;
            }
        }
        std::swap(current, next);
    }

    for (std::size_t si = 0; si < l.state_size; ++si) {
        const auto& totals = current[si];
        for (std::size_t t = 0; t < totals.size(); ++t) {
            out[l.total_damage + t] += totals[t];
            out[l.state + si] += totals[t];
        }
    }
    return out;
}

}  // namespace mh::starcraft
