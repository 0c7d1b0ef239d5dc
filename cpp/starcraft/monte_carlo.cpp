// Monte Carlo: roll_batch on random dice, counted into the same layouts as the exact engine.
#include "core/dice.hpp"
#include "core/interrupt.hpp"
#include "core/parallel.hpp"
#include "starcraft/allocation.hpp"
#include "starcraft/layout.hpp"
#include "starcraft/monte_carlo.hpp"
#include "starcraft/resolve.hpp"

namespace mh::starcraft {

std::vector<uint64_t> sample_attack(const BatchConfig& config, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                    uint64_t chunk_end, int threads) {
    const AttackLayout l = attack_layout(config);
    return run_chunks(seed, total, chunk_begin, chunk_end, l.size, threads, [&](Rng& rng, uint64_t n, uint64_t* counts) {
        const BatchConfig c = config;  // a local copy the optimiser can keep in registers
        DiceSource dice(rng);
        for (uint64_t i = 0; i < n; ++i) {
            const BatchRoll r = roll_batch(c, dice);
            ++counts[l.hits + r.hits];
            ++counts[l.surge + r.surge];
            ++counts[l.bypass + r.bypass];
            ++counts[l.armour_fails + r.armour_fails];
            ++counts[l.damage_pool + r.damage_pool];
            ++counts[l.inflicting + r.inflicting];
        }
    });
}

std::vector<uint64_t> sample_sequence(const UnitProfile& unit, const UnitState& start,
                                      const std::vector<BatchConfig>& batches, uint64_t seed, uint64_t total,
                                      uint64_t chunk_begin, uint64_t chunk_end, int threads) {
    const SequenceLayout l = sequence_layout(unit, start, batches);
    return run_chunks(seed, total, chunk_begin, chunk_end, l.size, threads, [&](Rng& rng, uint64_t n, uint64_t* counts) {
        DiceSource dice(rng);
        for (uint64_t i = 0; i < n; ++i) {
            check_interrupt();  // a sample may roll thousands of dice: a chunk can take seconds
            UnitState state = start;
            std::size_t total_damage = 0;
            for (std::size_t bi = 0; bi < batches.size(); ++bi) {
                const BatchSlots& slot = l.batches[bi];
                if (state.models == 0) {  // a batch against a destroyed unit does nothing
                    ++counts[slot.damage];
                    ++counts[slot.casualties];
                    ++counts[slot.marker + state.marker];
                    ++counts[slot.destroyed];
                    continue;
                }
                const BatchConfig& c = batches[bi];
                const int damage = roll_batch(c, dice).inflicting * c.damage_per_die;
                const Allocation a = allocate(unit, state, damage, c.alloc);
                ++counts[slot.damage + damage];
                ++counts[slot.casualties + a.casualties];
                ++counts[slot.marker + a.state.marker];
                counts[slot.destroyed] += a.destroyed;
                counts[slot.shield_lost] += a.shield_lost;
                state = a.state;
                total_damage += static_cast<std::size_t>(damage);
            }
            ++counts[l.total_damage + total_damage];
            ++counts[l.state + l.state_index(state)];
        }
    });
}

}  // namespace mh::starcraft
