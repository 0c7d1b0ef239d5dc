#include "killteam/dice/exact.hpp"

#include <algorithm>
#include <array>

#include "killteam/dice/resolve.hpp"

namespace mh::kt {

using namespace dice_steps;

namespace {

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

}  // namespace

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

}  // namespace mh::kt
