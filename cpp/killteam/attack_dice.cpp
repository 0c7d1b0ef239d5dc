#include "killteam/attack_dice.hpp"

#include <algorithm>

#include "core/parallel.hpp"
#include "killteam/attack_roll.hpp"

namespace mh::kt {

namespace {

enum Category { kFail = 0, kNorm = 1, kCrit = 2 };

Category classify(const AttackProfile& p, int face) {
    if (face >= p.crit) return kCrit;
    return face >= p.hit ? kNorm : kFail;
}

int auto_crit_dice(const AttackProfile& p) { return std::min(p.auto_crits, p.dice); }
int accurate_dice(const AttackProfile& p) { return std::min(p.accurate, p.dice - auto_crit_dice(p)); }
int rolled_dice(const AttackProfile& p) { return p.dice - auto_crit_dice(p) - accurate_dice(p); }

// Purity Seal's default reading needs the 1s among the fails; with a 2+ stat every fail is a 1.
bool tracks_ones(const AttackProfile& p) { return p.purity_seal && p.ones == Ones::UnmodifiedOnes && p.hit > 2; }

// How many fails and norms the reroll rule rerolls, and how many of those fails show a 1.
// `ones` = fails showing 1, `top_other` = count of the most common fail face other than 1. Where the
// rule leaves a choice, fails other than 1s are rerolled first: a kept 1 can only help Purity Seal.
struct Rerolls {
    int fails = 0;
    int norms = 0;
    int ones = 0;
};

Rerolls choose_rerolls(Reroll rule, int n, int f, int ones, int top_other) {
    const int others = f - ones;
    auto fails_preferring_others = [&](int k) { return Rerolls{k, 0, std::max(0, k - others)}; };
    switch (rule) {
        case Reroll::None: return {};
        case Reroll::Balanced: return fails_preferring_others(std::min(f, 1));
        case Reroll::DoubleBalanced: return fails_preferring_others(std::min(f, 2));
        case Reroll::Ceaseless:
        case Reroll::CeaselessBalanced: {
            // The most common fail face; on a tie a face other than 1.
            Rerolls r = ones > top_other ? Rerolls{ones, 0, ones} : Rerolls{top_other, 0, 0};
            if (rule == Reroll::CeaselessBalanced && f > r.fails) {
                const int others_left = others - (r.fails - r.ones);
                ++r.fails;
                if (others_left == 0) ++r.ones;
            }
            return r;
        }
        case Reroll::Relentless: return {f, 0, ones};
        case Reroll::RelentlessCritFishing: return {f, n, ones};
        case Reroll::RerollOnes: return {ones, 0, ones};
        case Reroll::RerollOnesBalanced: return {ones + (f > ones ? 1 : 0), 0, ones};
    }
    return {};
}

// The first roll, as counts per face (faces[1..6]): what is kept and how many dice are rolled again.
struct Kept {
    int c = 0, n = 0, f = 0;
    int ones = 0;  // kept fails showing 1
    int rerolled = 0;
};

Kept keep_first_roll(const AttackProfile& p, const int faces[7]) {
    int count[3] = {0, 0, 0};
    int top_other = 0;
    for (int face = 1; face <= 6; ++face) {
        const Category cat = classify(p, face);
        count[cat] += faces[face];
        if (cat == kFail && face != 1) top_other = std::max(top_other, faces[face]);
    }
    const Rerolls r = choose_rerolls(p.reroll, count[kNorm], count[kFail], faces[1], top_other);
    return {count[kCrit], count[kNorm] - r.norms, count[kFail] - r.fails, faces[1] - r.ones, r.fails + r.norms};
}

double factorial(int k) {
    static const auto table = [] {
        std::array<double, kMaxDice + 1> t{};
        t[0] = 1.0;
        for (int i = 1; i <= kMaxDice; ++i) t[i] = t[i - 1] * i;
        return t;
    }();
    return table[k];
}

double power(double base, int e) {
    double r = 1.0;
    for (int i = 0; i < e; ++i) r *= base;
    return r;
}

// Groups of faces the reroll rule (and Purity Seal) tell apart: crit faces, norm faces, then the
// fail faces as one group, as {ones, other fails}, or one by one (Ceaseless needs the most common
// fail face).
struct FaceGroups {
    int count = 0;
    double prob[8] = {};
    Category category[8] = {};
    bool is_ones[8] = {};
};

FaceGroups face_groups(const AttackProfile& p) {
    FaceGroups g;
    auto add = [&g](double prob, Category c, bool ones) {
        if (prob <= 0.0) return;
        g.prob[g.count] = prob;
        g.category[g.count] = c;
        g.is_ones[g.count] = ones;
        ++g.count;
    };
    add((7 - p.crit) / 6.0, kCrit, false);
    add((p.crit - p.hit) / 6.0, kNorm, false);
    const int fail_faces = p.hit - 1;
    if (p.reroll == Reroll::Ceaseless || p.reroll == Reroll::CeaselessBalanced) {
        for (int face = 1; face <= fail_faces; ++face) add(1 / 6.0, kFail, face == 1);
    } else if (p.reroll == Reroll::RerollOnes || p.reroll == Reroll::RerollOnesBalanced || tracks_ones(p)) {
        add(1 / 6.0, kFail, true);
        add((fail_faces - 1) / 6.0, kFail, false);
    } else {
        add(fail_faces / 6.0, kFail, false);
    }
    return g;
}

// The retained dice while the pipeline runs: crits, rolled norms, Accurate norms, fails.
struct Pool {
    int c = 0;
    int r = 0;  // norms Rending may upgrade (rolled, or made from a fail)
    int a = 0;  // Accurate norms
    int f = 0;
    bool severe_fired = false;

    int norms() const { return r + a; }
    void upgrade(Upgrades which) {
        if (which == Upgrades::AccurateFirst ? a > 0 : r == 0) --a;
        else --r;
        ++c;
    }
    void fail_to_norm() {
        --f;
        ++r;
    }
};

// Steps 10-11: Rending, then Obscured.
Retained finish_tail(const AttackProfile& p, Pool d) {
    if (p.rending && !d.severe_fired && d.c > 0 && d.r > 0) {
        --d.r;
        ++d.c;
    }
    int norms = d.norms();
    int crits = d.c;
    if (p.obscured) {
        norms = std::max(0, norms + crits - 1);
        crits = 0;
    }
    return {crits, norms};
}

}  // namespace

Retained finish_roll(const AttackProfile& p, int c, int n, int f, int ones) {
    Pool d;
    // 1. Auto crits and Accurate norms join the rolled dice.
    d.c = c + auto_crit_dice(p);
    d.r = n;
    d.a = accurate_dice(p);
    d.f = f;
    // 2. Punishing (not against an obscured target); it takes a fail other than a 1 when it can.
    if (p.punishing && !p.obscured && d.c > 0 && d.f > 0) {
        d.fail_to_norm();
        ones = std::min(ones, d.f);
    }
    // 3. Purity Seal: one of two fails is discarded, the other becomes a norm.
    if (p.purity_seal && (p.ones == Ones::AnyTwoFails ? d.f : ones) >= 2) {
        d.f -= 2;
        ++d.r;
    }
    // 4. Close Assault: crits count as successes here even against an obscured target.
    if (p.close_assault && d.c + d.norms() >= 2 && d.f > 0) d.fail_to_norm();
    // 5. Waaagh.
    if (p.waaagh && d.norms() >= 2) d.upgrade(p.upgrades);
    // 6. Fails to Norms.
    const int fixed = std::min(p.fails_to_norms, d.f);
    d.f -= fixed;
    d.r += fixed;
    // 7. Severe: which norm does not matter, Rending cannot fire afterwards.
    if (p.severe && d.c == 0 && d.norms() > 0) {
        d.upgrade(p.upgrades);
        d.severe_fired = true;
    }
    // 8. Norms to Crits.
    const int upgrade = std::min(p.norms_to_crits, d.norms());
    for (int i = 0; i < upgrade; ++i) d.upgrade(p.upgrades);
    // 9. Mystic Scry: the first of (norm → crit, fail → norm, nothing) with the strictly best score.
    if (p.mystic_scry) {
        auto score = [&p](const Retained& out) { return out.crits * p.scry_crit_value + out.norms * p.scry_norm_value; };
        Pool best = d;
        int best_score = -1;
        for (int option = 0; option < 3; ++option) {
            Pool candidate = d;
            if (option == 0) {
                if (d.norms() == 0) continue;
                candidate.upgrade(p.upgrades);
            } else if (option == 1) {
                if (d.f == 0) continue;
                candidate.fail_to_norm();
            }
            const int s = score(finish_tail(p, candidate));
            if (s > best_score) {
                best_score = s;
                best = candidate;
            }
        }
        d = best;
    }
    return finish_tail(p, d);
}

Retained roll_attack(const AttackProfile& p, DiceSource& dice) {
    const int k = rolled_dice(p);
    int faces[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < k; ++i) ++faces[dice.d6()];
    const Kept kept = keep_first_roll(p, faces);
    int count[3] = {kept.f, kept.n, kept.c};
    int ones = kept.ones;
    for (int i = 0; i < kept.rerolled; ++i) {
        const int face = dice.d6();
        ++count[classify(p, face)];
        if (face == 1) ++ones;
    }
    return finish_roll(p, count[kCrit], count[kNorm], count[kFail], ones);
}

namespace {

// The counts of AttackRoller's tables, packed 4 bits a field (at most 12 dice).
uint16_t pack_counts(int c, int n, int ones, int rerolled) {
    return static_cast<uint16_t>(c | n << 4 | ones << 8 | rerolled << 12);
}

// The faces of the g dice in a base-6 number (digit i = die i's face - 1), as counts per face.
void add_faces(uint64_t v, int g, int faces[7]) {
    for (int i = 0; i < g; ++i, v /= 6) ++faces[v % 6 + 1];
}

}  // namespace

AttackRoller::AttackRoller(const AttackProfile& p)
    : profile_(p), rolled_(rolled_dice(p)), direct_(rolled_ <= kDirectDice) {
    for (int g = 1; g <= kGroup; ++g) {
        classify_[g].resize(DiceSource::kPow6[g]);
        for (uint64_t v = 0; v < DiceSource::kPow6[g]; ++v) {
            int faces[7] = {0, 0, 0, 0, 0, 0, 0};
            add_faces(v, g, faces);
            int count[3] = {0, 0, 0};
            for (int face = 1; face <= 6; ++face) count[classify(p, face)] += faces[face];
            classify_[g][v] = pack_counts(count[kCrit], count[kNorm], faces[1], 0);
        }
    }
    // 1s matter only as "two or more" (Purity Seal), so they are counted up to 2.
    finish_.assign(kTableSide * kTableSide * 3, 0);
    for (int c = 0; c <= rolled_; ++c) {
        for (int n = 0; c + n <= rolled_; ++n) {
            for (int ones = 0; ones < 3; ++ones) {
                const Retained out = finish_roll(p, c, n, rolled_ - c - n, ones);
                finish_[(c * kTableSide + n) * 3 + ones] = static_cast<uint8_t>(out.crits * kTableSide + out.norms);
            }
        }
    }
    if (!direct_) return;
    const uint64_t numbers = DiceSource::kPow6[rolled_];
    first_.resize(numbers);
    for (uint64_t v = 0; v < numbers; ++v) {
        int faces[7] = {0, 0, 0, 0, 0, 0, 0};
        add_faces(v, rolled_, faces);
        const Kept kept = keep_first_roll(p, faces);
        first_[v] = pack_counts(kept.c, kept.n, kept.ones, kept.rerolled);
        rerolls_ = rerolls_ || kept.rerolled > 0;
    }
    if (rerolls_) return;
    result_.resize(numbers);
    for (uint64_t v = 0; v < numbers; ++v) {
        const uint16_t kept = first_[v];
        const int c = kept & 15, n = (kept >> kNormShift) & 15, ones = (kept >> kOnesShift) & 15;
        result_[v] = finish_[(c * kTableSide + n) * 3 + std::min(ones, 2)];
    }
}

int AttackRoller::roll_many(DiceSource& dice) const {
    int faces[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int left = rolled_; left > 0; left -= kGroup) {
        const int g = std::min(left, kGroup);
        add_faces(dice.digits(g), g, faces);
    }
    const Kept kept = keep_first_roll(profile_, faces);
    return finish(pack_counts(kept.c, kept.n, kept.ones, 0), kept.rerolled, dice);
}

RetainedTable attack_distribution(const AttackProfile& p) {
    const int k = rolled_dice(p);
    const FaceGroups g = face_groups(p);
    const bool ones_tracked = tracks_ones(p);
    // Pass 1: probability of (kept crits, kept norms, rerolled dice, kept 1s capped at 2) after the
    // first roll. Purity Seal only asks whether two 1s are left, so 1s are counted up to 2.
    static constexpr int S = kTableSide;
    static constexpr int kOnes = 3;
    // Indexed by counts 0..k only: zeroing the whole 13^3 x 3 table cost more than the enumeration.
    const int K = k + 1;
    std::array<double, S * S * S * kOnes> before;
    std::fill_n(before.begin(), K * K * K * kOnes, 0.0);
    int counts[8] = {};
    auto visit = [&](auto&& self, int group, int left, double prob) -> void {
        if (group == g.count - 1) {
            counts[group] = left;
            prob *= power(g.prob[group], left) / factorial(left);
            int c = 0, n = 0, f = 0, ones = 0, top_other = 0;
            for (int i = 0; i < g.count; ++i) {
                if (g.category[i] == kCrit) c += counts[i];
                else if (g.category[i] == kNorm) n += counts[i];
                else {
                    f += counts[i];
                    if (g.is_ones[i]) ones += counts[i];
                    else top_other = std::max(top_other, counts[i]);
                }
            }
            const Rerolls r = choose_rerolls(p.reroll, n, f, ones, top_other);
            const int kept_ones = ones_tracked ? std::min(2, ones - r.ones) : 0;
            before[((c * K + (n - r.norms)) * K + r.fails + r.norms) * kOnes + kept_ones] += prob * factorial(k);
            return;
        }
        for (int x = 0; x <= left; ++x) {
            counts[group] = x;
            self(self, group + 1, left - x, prob * power(g.prob[group], x) / factorial(x));
        }
    };
    visit(visit, 0, k, 1.0);

    // Pass 2: roll the rerolled dice (crit / norm / fail, the fails split into 1s and others when
    // Purity Seal reads them) and run the pipeline.
    const double pc = (7 - p.crit) / 6.0, pn = (p.crit - p.hit) / 6.0, pf = (p.hit - 1) / 6.0;
    const double p_one = 1.0 / 6.0, p_other = (p.hit - 2) / 6.0;
    RetainedTable table{};
    for (int c = 0; c <= k; ++c) {
        for (int n = 0; c + n <= k; ++n) {
            for (int r = 0; c + n + r <= k; ++r) {
                for (int kept_ones = 0; kept_ones < kOnes; ++kept_ones) {
                    const double prob = before[((c * K + n) * K + r) * kOnes + kept_ones];
                    if (prob == 0.0) continue;
                    const int f = k - c - n - r;
                    for (int rc = 0; rc <= r; ++rc) {
                        for (int rn = 0; rc + rn <= r; ++rn) {
                            const int rf = r - rc - rn;
                            const double q = factorial(r) / (factorial(rc) * factorial(rn) * factorial(rf)) *
                                             power(pc, rc) * power(pn, rn);
                            if (!ones_tracked) {
                                const Retained out = finish_roll(p, c + rc, n + rn, f + rf, f + rf);
                                table[out.crits * S + out.norms] += prob * q * power(pf, rf);
                                continue;
                            }
                            // Which of the rf rerolled fails show a 1.
                            for (int r1 = 0; r1 <= rf; ++r1) {
                                const double q1 = factorial(rf) / (factorial(r1) * factorial(rf - r1)) *
                                                  power(p_one, r1) * power(p_other, rf - r1);
                                const Retained out = finish_roll(p, c + rc, n + rn, f + rf, kept_ones + r1);
                                table[out.crits * S + out.norms] += prob * q * q1;
                            }
                        }
                    }
                }
            }
        }
    }
    return table;
}

std::vector<uint64_t> attack_dice_counts(const AttackProfile& p, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                         uint64_t chunk_end, int threads) {
    const AttackRoller roller(p);  // the same dice as roll_attack, looked up
    return run_chunks(seed, total, chunk_begin, chunk_end, kTableSide * kTableSide, threads,
                      [&roller](Rng& rng, uint64_t n, uint64_t* c) {
                          DiceSource dice(rng);
                          for (uint64_t i = 0; i < n; ++i) ++c[roller.roll(dice)];
                      });
}

}  // namespace mh::kt
