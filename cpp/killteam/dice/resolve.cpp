#include "killteam/dice/resolve.hpp"

namespace mh::kt {

using namespace dice_steps;

namespace {

// The retained dice while the pipeline runs: crits, rolled norms, Accurate norms, fails.
struct Pool {
    int c = 0;
    int r = 0;  // norms Rending may upgrade (rolled, or made from a fail)
    int a = 0;  // Accurate norms
    int f = 0;
    bool severe_fired = false;

    int norms() const { return r + a; }
    // An upgrade (norm -> crit; the caller checks that a norm is there). Accurate first takes an
    // Accurate norm while one is left. Rolled first is the reference's reading
    // (docs/rules/killteam.md §8.5, upgrades=rolled_first): the Accurate count stays fixed, so every
    // upgrade is charged to the rolled norms, even past zero, and Rending needs rolled norms left
    // over (r > 0), i.e. more norms than Accurate norms.
    void upgrade(Upgrades which) {
        if (which == Upgrades::AccurateFirst && a > 0) --a;
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

}  // namespace mh::kt
