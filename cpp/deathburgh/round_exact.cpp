// The exact round engine (docs/rules/deathburgh.md §7).
//
// It keeps the joint law of the wounds of every miniature in some combat, as one dense array per
// "has fought" mask; a mask holds only the bits that a later combat still reads (a combat whose
// mode follows the state). Each combat moves probability mass within the two participants' axes.
// How it moves comes from play_combat() (round.hpp) run with every outcome of the exact combat, once
// per participant wounds pair, and is kept as a table of moves: the rules are not restated here.
#include <algorithm>
#include <iterator>
#include <map>
#include <stdexcept>

#include "core/interrupt.hpp"
#include "deathburgh/exact.hpp"
#include "deathburgh/layout.hpp"
#include "deathburgh/round.hpp"

namespace mh::deathburgh {

namespace {

// Every outcome of the exact combat (both pools by convolution, resolve() per cell), computed once
// per combat and pair of modes.
class EnumeratedOutcome {
public:
    explicit EnumeratedOutcome(std::size_t n_combats) : cells_(n_combats * 4), done_(n_combats * 4, false) {}

    template <class F>
    void each(std::size_t k, int mode_a, int mode_d, const RoundCombat& c, F&& f) {
        const std::size_t key = k * 4 + std::size_t(mode_a) * 2 + std::size_t(mode_d);
        if (!done_[key]) {
            const ExactCombat exact = combat_exact({c.attacker_pool[mode_a], c.defender_pool[mode_d], c.rules});
            const int cols = exact.shape.wounds_attacker;
            for (std::size_t i = 0; i < exact.wounds.size(); ++i) {
                if (exact.wounds[i] > 0.0) cells_[key].push_back({{int(i) / cols, int(i) % cols}, exact.wounds[i]});
            }
            done_[key] = true;
        }
        for (const Cell& cell : cells_[key]) f(cell.wounds, cell.p);
    }

private:
    struct Cell {
        Wounds wounds;
        double p;
    };
    std::vector<std::vector<Cell>> cells_;
    std::vector<bool> done_;
};

// Where the mass of one state goes in one combat.
struct Move {
    std::ptrdiff_t offset;  // index of the next state minus index of this one
    double p;
    int bits;               // the participants' "has fought" bits after it (bit 0 attacker, 1 defender)
};

// The moves of one combat from every (attacker wounds, defender wounds), for one value of the
// participants' fought bits before it.
struct MoveTable {
    std::vector<std::size_t> row_begin;  // row w_a * n_d + w_d: moves[row_begin[row] .. row_begin[row + 1])
    std::vector<Move> moves;
    std::vector<char> fought;            // per row: the combat is fought (else skipped) from it
    bool uses_bits[4] = {false, false, false, false};
};

struct Axes {
    int axis[kMaxMiniatures];  // -1: in no combat
    std::vector<int> size;     // start wounds + 1, per axis
    std::vector<std::size_t> stride;
    std::size_t states = 1;
};

Axes round_axes(const RoundSpec& spec) {
    uint32_t involved = 0;
    for (const RoundCombat& c : spec.combats) involved |= miniature_bit(c.attacker) | miniature_bit(c.defender);
    Axes axes;
    const int n = int(spec.start_wounds.size());
    for (int i = 0; i < n; ++i) {
        axes.axis[i] = -1;
        if (involved & miniature_bit(i)) {
            axes.axis[i] = int(axes.size.size());
            axes.size.push_back(spec.start_wounds[i] + 1);
        }
    }
    axes.stride.assign(axes.size.size(), 1);
    for (int j = int(axes.size.size()) - 2; j >= 0; --j) axes.stride[j] = axes.stride[j + 1] * axes.size[j + 1];
    for (int s : axes.size) axes.states *= std::size_t(s);
    return axes;
}

MoveTable move_table(const RoundSpec& spec, std::size_t k, int bits_before, const Axes& axes,
                     EnumeratedOutcome& outcomes) {
    const RoundCombat& c = spec.combats[k];
    const int n_a = spec.start_wounds[c.attacker] + 1;
    const int n_d = spec.start_wounds[c.defender] + 1;
    const auto stride_a = std::ptrdiff_t(axes.stride[axes.axis[c.attacker]]);
    const auto stride_d = std::ptrdiff_t(axes.stride[axes.axis[c.defender]]);
    const uint32_t bit_a = miniature_bit(c.attacker);
    const uint32_t bit_d = miniature_bit(c.defender);
    const std::size_t cells = std::size_t(n_a) * n_d;
    // Mass landing on each (bits after, next wounds pair), gathered for one row at a time.
    std::vector<double> landing(4 * cells);

    MoveTable table;
    RoundState state{};
    state.fought = ((bits_before & 1) ? bit_a : 0) | ((bits_before & 2) ? bit_d : 0);
    for (int w_a = 0; w_a < n_a; ++w_a) {
        for (int w_d = 0; w_d < n_d; ++w_d) {
            table.row_begin.push_back(table.moves.size());
            state.wounds[c.attacker] = w_a;
            state.wounds[c.defender] = w_d;
            std::fill(landing.begin(), landing.end(), 0.0);
            bool row_fought = false;
            play_combat(c, k, state, outcomes, [&](const CombatEnd& end, double p, bool fought) {
                const int bits = ((end.fought & bit_a) ? 1 : 0) | ((end.fought & bit_d) ? 2 : 0);
                const std::size_t cell = std::size_t(end.attacker_wounds) * n_d + end.defender_wounds;
                landing[std::size_t(bits) * cells + cell] += p;
                row_fought = row_fought || fought;  // a combat is fought or skipped as a whole
            });
            table.fought.push_back(row_fought);
            for (std::size_t i = 0; i < landing.size(); ++i) {
                if (landing[i] == 0.0) continue;
                const int bits = int(i / cells);
                const int next_a = int((i % cells) / n_d);
                const int next_d = int((i % cells) % n_d);
                const std::ptrdiff_t offset = (next_a - w_a) * stride_a + (next_d - w_d) * stride_d;
                table.moves.push_back({offset, landing[i], bits});
                table.uses_bits[bits] = true;
            }
        }
    }
    table.row_begin.push_back(table.moves.size());
    return table;
}

}  // namespace

std::vector<double> round_exact(const RoundSpec& spec) {
    check_round(spec);
    const Axes axes = round_axes(spec);
    if (axes.states > kMaxExactStates) {
        throw std::invalid_argument("deathburgh: too many joint wound states for the exact round engine");
    }
    const std::size_t n_combats = spec.combats.size();

    // Fought bits that some combat after k still reads; the others are dropped from the masks.
    std::vector<uint32_t> keep_after(n_combats, 0);
    uint32_t needed = 0;
    for (std::size_t k = n_combats; k-- > 0;) {
        keep_after[k] = needed;
        const RoundCombat& c = spec.combats[k];
        if (c.attacker_mode == kModeFromState) needed |= miniature_bit(c.attacker);
        if (c.defender_mode == kModeFromState) needed |= miniature_bit(c.defender);
    }

    std::map<uint32_t, std::vector<double>> states;  // by fought mask
    {
        std::vector<double>& initial = states[0];
        initial.assign(axes.states, 0.0);
        std::size_t start = 0;
        for (std::size_t j = 0; j < axes.size.size(); ++j) start += std::size_t(axes.size[j] - 1) * axes.stride[j];
        initial[start] = 1.0;
    }

    EnumeratedOutcome outcomes(n_combats);
    std::vector<double> p_fought(n_combats, 0.0);
    for (std::size_t k = 0; k < n_combats; ++k) {
        const RoundCombat& c = spec.combats[k];
        const uint32_t bit_a = miniature_bit(c.attacker);
        const uint32_t bit_d = miniature_bit(c.defender);
        const std::size_t stride_a = axes.stride[axes.axis[c.attacker]];
        const std::size_t stride_d = axes.stride[axes.axis[c.defender]];
        const std::size_t n_a = std::size_t(spec.start_wounds[c.attacker]) + 1;
        const std::size_t n_d = std::size_t(spec.start_wounds[c.defender]) + 1;
        MoveTable tables[4];  // by the participants' fought bits before the combat, built when first met
        bool built[4] = {false, false, false, false};

        std::map<uint32_t, std::vector<double>> next;
        double fought_mass = 0.0;
        for (const auto& [mask, array] : states) {
            check_interrupt();
            const int bits_before = ((mask & bit_a) ? 1 : 0) | ((mask & bit_d) ? 2 : 0);
            if (!built[bits_before]) {
                tables[bits_before] = move_table(spec, k, bits_before, axes, outcomes);
                built[bits_before] = true;
            }
            const MoveTable& table = tables[bits_before];
            double* destination[4] = {nullptr, nullptr, nullptr, nullptr};
            for (int bits = 0; bits < 4; ++bits) {
                if (!table.uses_bits[bits]) continue;
                const uint32_t key =
                    ((mask & ~(bit_a | bit_d)) | ((bits & 1) ? bit_a : 0) | ((bits & 2) ? bit_d : 0)) & keep_after[k];
                std::vector<double>& out = next[key];
                if (out.empty()) out.assign(axes.states, 0.0);
                destination[bits] = out.data();
            }
            for (std::size_t idx = 0; idx < axes.states; ++idx) {
                const double p = array[idx];
                if (p == 0.0) continue;
                const std::size_t row = (idx / stride_a) % n_a * n_d + (idx / stride_d) % n_d;
                // The mass before the combat, so that a combat fought for sure has exactly 1.
                if (table.fought[row]) fought_mass += p;
                for (std::size_t m = table.row_begin[row]; m < table.row_begin[row + 1]; ++m) {
                    const Move& move = table.moves[m];
                    destination[move.bits][std::ptrdiff_t(idx) + move.offset] += p * move.p;
                }
            }
        }
        // A mask reached only by states whose combat was skipped may hold no mass: drop it.
        for (auto it = next.begin(); it != next.end();) {
            const bool empty = std::all_of(it->second.begin(), it->second.end(), [](double p) { return p == 0.0; });
            it = empty ? next.erase(it) : std::next(it);
        }
        states = std::move(next);
        p_fought[k] = fought_mass;
    }

    std::vector<double> out(round_bins(spec), 0.0);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < spec.start_wounds.size(); ++i) {
        const int j = axes.axis[i];
        double* left = out.data() + offset;
        offset += std::size_t(spec.start_wounds[i]) + 1;
        if (j < 0) {  // in no combat: keeps its wounds
            left[spec.start_wounds[i]] = 1.0;
            continue;
        }
        // The marginal of axis j: index = (outer * size + w) * stride + inner.
        const std::size_t size = std::size_t(axes.size[j]);
        const std::size_t stride = axes.stride[j];
        const std::size_t outer_count = axes.states / (size * stride);
        for (const auto& entry : states) {
            const std::vector<double>& array = entry.second;
            for (std::size_t outer = 0; outer < outer_count; ++outer) {
                for (std::size_t w = 0; w < size; ++w) {
                    const double* block = array.data() + (outer * size + w) * stride;
                    double sum = 0.0;
                    for (std::size_t inner = 0; inner < stride; ++inner) sum += block[inner];
                    left[w] += sum;
                }
            }
        }
    }
    std::copy(p_fought.begin(), p_fought.end(), out.begin() + std::ptrdiff_t(offset));
    return out;
}

}  // namespace mh::deathburgh
