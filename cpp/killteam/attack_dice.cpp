#include "killteam/attack_dice.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace mh::kt {

namespace {

enum Category { kFail = 0, kNorm = 1, kCrit = 2 };

Category classify(const AttackProfile& p, int face) {
    if (face >= p.crit) return kCrit;
    return face >= p.hit ? kNorm : kFail;
}

int rolled_dice(const AttackProfile& p) { return p.dice - std::min(p.accurate, p.dice); }

// How many fails and norms the reroll rule rerolls, given the faces rolled.
// `ones` = fails showing 1, `top_fail_face` = count of the most common fail face.
struct Rerolls {
    int fails = 0;
    int norms = 0;
};

Rerolls choose_rerolls(Reroll rule, int n, int f, int ones, int top_fail_face) {
    switch (rule) {
        case Reroll::None: return {};
        case Reroll::Balanced: return {std::min(f, 1), 0};
        case Reroll::DoubleBalanced: return {std::min(f, 2), 0};
        case Reroll::Ceaseless: return {top_fail_face, 0};
        case Reroll::CeaselessBalanced: return {top_fail_face + (f > top_fail_face ? 1 : 0), 0};
        case Reroll::Relentless: return {f, 0};
        case Reroll::RelentlessCritFishing: return {f, n};
        case Reroll::RerollOnes: return {ones, 0};
        case Reroll::RerollOnesBalanced: return {ones + (f > ones ? 1 : 0), 0};
    }
    return {};
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

// Groups of faces the reroll rule tells apart: crit faces, norm faces, then the fail faces as one
// group, as {ones, other fails}, or one by one (Ceaseless needs the most common fail face).
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
    switch (p.reroll) {
        case Reroll::Ceaseless:
        case Reroll::CeaselessBalanced:
            for (int face = 1; face <= fail_faces; ++face) add(1 / 6.0, kFail, face == 1);
            break;
        case Reroll::RerollOnes:
        case Reroll::RerollOnesBalanced:
            add(1 / 6.0, kFail, true);
            add((fail_faces - 1) / 6.0, kFail, false);
            break;
        default:
            add(fail_faces / 6.0, kFail, false);
    }
    return g;
}

}  // namespace

Retained finish_roll(const AttackProfile& p, int c, int n, int f) {
    const int accurate = std::min(p.accurate, p.dice);
    int rolled_norms = n;  // norms that Rending may upgrade
    int accurate_norms = accurate;
    // Punishing: a crit and a fail → one fail becomes a norm (not against an obscured target).
    if (p.punishing && !p.obscured && c > 0 && f > 0) {
        --f;
        ++rolled_norms;
    }
    const int fixed = std::min(p.fails_to_norms, f);
    f -= fixed;
    rolled_norms += fixed;
    bool severe_fired = false;
    if (p.severe && c == 0 && rolled_norms + accurate_norms > 0) {
        // Which norm does not matter: Rending cannot fire after Severe.
        if (accurate_norms > 0) --accurate_norms; else --rolled_norms;
        ++c;
        severe_fired = true;
    }
    // Norms to crits upgrades Accurate norms first, keeping rolled norms for Rending.
    int upgrade = std::min(p.norms_to_crits, rolled_norms + accurate_norms);
    c += upgrade;
    const int from_accurate = std::min(upgrade, accurate_norms);
    accurate_norms -= from_accurate;
    rolled_norms -= upgrade - from_accurate;
    if (p.rending && !severe_fired && c > 0 && rolled_norms > 0) {
        --rolled_norms;
        ++c;
    }
    int norms = rolled_norms + accurate_norms;
    if (p.obscured) {
        norms += c;
        c = 0;
        if (norms > 0) --norms;
    }
    return {c, norms};
}

Retained roll_attack(const AttackProfile& p, DiceSource& dice) {
    const int k = rolled_dice(p);
    int faces[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < k; ++i) ++faces[dice.d6()];
    int count[3] = {0, 0, 0};
    int top_fail_face = 0;
    for (int face = 1; face <= 6; ++face) {
        const Category cat = classify(p, face);
        count[cat] += faces[face];
        if (cat == kFail) top_fail_face = std::max(top_fail_face, faces[face]);
    }
    const Rerolls r = choose_rerolls(p.reroll, count[kNorm], count[kFail], faces[1], top_fail_face);
    count[kFail] -= r.fails;
    count[kNorm] -= r.norms;
    for (int i = 0; i < r.fails + r.norms; ++i) ++count[classify(p, dice.d6())];
    return finish_roll(p, count[kCrit], count[kNorm], count[kFail]);
}

RetainedTable attack_distribution(const AttackProfile& p) {
    const int k = rolled_dice(p);
    const FaceGroups g = face_groups(p);
    // Pass 1: probability of (kept crits, kept norms, rerolled dice) after the first roll.
    static constexpr int S = kTableSide;
    std::array<double, S * S * S> before{};
    int counts[8] = {};
    auto visit = [&](auto&& self, int group, int left, double prob) -> void {
        if (group == g.count - 1) {
            counts[group] = left;
            prob *= power(g.prob[group], left) / factorial(left);
            int c = 0, n = 0, f = 0, ones = 0, top = 0;
            for (int i = 0; i < g.count; ++i) {
                if (g.category[i] == kCrit) c += counts[i];
                else if (g.category[i] == kNorm) n += counts[i];
                else {
                    f += counts[i];
                    if (g.is_ones[i]) ones += counts[i];
                    top = std::max(top, counts[i]);
                }
            }
            const Rerolls r = choose_rerolls(p.reroll, n, f, ones, top);
            before[(c * S + (n - r.norms)) * S + r.fails + r.norms] += prob * factorial(k);
            return;
        }
        for (int x = 0; x <= left; ++x) {
            counts[group] = x;
            self(self, group + 1, left - x, prob * power(g.prob[group], x) / factorial(x));
        }
    };
    visit(visit, 0, k, 1.0);

    // Pass 2: roll the rerolled dice (crit / norm / fail) and run the pipeline.
    const double pc = (7 - p.crit) / 6.0, pn = (p.crit - p.hit) / 6.0, pf = (p.hit - 1) / 6.0;
    RetainedTable table{};
    for (int c = 0; c <= k; ++c) {
        for (int n = 0; c + n <= k; ++n) {
            for (int r = 0; c + n + r <= k; ++r) {
                const double prob = before[(c * S + n) * S + r];
                if (prob == 0.0) continue;
                const int f = k - c - n - r;
                for (int rc = 0; rc <= r; ++rc) {
                    for (int rn = 0; rc + rn <= r; ++rn) {
                        const int rf = r - rc - rn;
                        const double q = factorial(r) / (factorial(rc) * factorial(rn) * factorial(rf)) *
                                         power(pc, rc) * power(pn, rn) * power(pf, rf);
                        const Retained out = finish_roll(p, c + rc, n + rn, f + rf);
                        table[out.crits * S + out.norms] += prob * q;
                    }
                }
            }
        }
    }
    return table;
}

std::vector<uint64_t> attack_dice_counts(const AttackProfile& p, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                         uint64_t chunk_end, int threads) {
    return run_chunks(seed, total, chunk_begin, chunk_end, kTableSide * kTableSide, threads,
                      [&p](Rng& rng, uint64_t n, uint64_t* c) {
                          DiceSource dice(rng);
                          for (uint64_t i = 0; i < n; ++i) {
                              const Retained r = roll_attack(p, dice);
                              ++c[r.crits * kTableSide + r.norms];
                          }
                      });
}

}  // namespace mh::kt
