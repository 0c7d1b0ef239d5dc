// pybind11 glue for the Force melee engine: config structs, layouts and the engine entry points.
// Glue only: every rule and loop lives in cpp/force_melee/.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <cstddef>
#include <vector>

#include "bindings/common.hpp"
#include "bindings/fields.hpp"
#include "bindings/register.hpp"
#include "force_melee/allocation.hpp"
#include "force_melee/config.hpp"
#include "force_melee/exact.hpp"
#include "force_melee/layout.hpp"
#include "force_melee/monte_carlo.hpp"
#include "force_melee/resolve.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

using ExchangeArrays = py::typing::Tuple<py::array_t<double>, py::array_t<double>>;

// Exchanges up to this many histogram cells (a few milliseconds of work at most) run on the calling
// thread: a helper thread's wake-up costs more than a small exchange.
constexpr std::size_t kInlineCells = std::size_t{1} << 18;

// (damage to A x damage to B, hits A x hits B): see force_melee::ExchangeTables.
ExchangeArrays exchange_arrays(const force_melee::ExchangeTables& t) {
    return ExchangeArrays(py::make_tuple(to_numpy(t.damage, {t.layout.damage_a_bins, t.layout.damage_b_bins}),
                                         to_numpy(t.hits, {t.layout.hits_a_bins, t.layout.hits_b_bins})));
}

}  // namespace

void register_force_melee(py::module_ m) {
    using namespace mh::force_melee;
    m.attr("MAX_DICE") = kMaxDice;
    m.attr("MAX_MODELS") = kMaxModels;
    m.attr("MAX_HP") = kMaxHp;
    m.attr("MAX_UNITS") = kMaxUnits;
    m.attr("MAX_PAIRS") = kMaxPairs;

    py::enum_<Reroll>(m, "Reroll", "Hit-roll rerolls").value("none", Reroll::none).value("fails", Reroll::fails).value("ones", Reroll::ones);
    py::enum_<WinnerDamage>(m, "WinnerDamage", "Damage of the side with more hits (FM-1)")
        .value("once", WinnerDamage::once)
        .value("excess", WinnerDamage::excess)
        .value("per_hit", WinnerDamage::per_hit)
        .value("pairing", WinnerDamage::pairing);
    py::enum_<Allocation>(m, "Allocation", "Whether excess damage spills to the next model (FM-10)").value("spill", Allocation::spill).value("no_spill", Allocation::no_spill);
    py::enum_<SustainedMode>(m, "SustainedMode", "Sustained / Critical Damage as bonus or extra hits (FM-7)")
        .value("bonus", SustainedMode::bonus)
        .value("extra_hits", SustainedMode::extra_hits);

    py::class_<SideConfig>(m, "SideConfig", "One side of one exchange, reduced to what the dice and damage need")
        .def(py::init([](int dice, int target, int crit_face, Reroll reroll, int force, int sustained,
                         int critical_damage, int bonus_flat) {
                 return SideConfig{dice, target, crit_face, reroll, force, sustained, critical_damage, bonus_flat};
             }),
             py::arg("dice"), py::arg("target"), py::arg("crit_face"), py::arg("reroll"), py::arg("force"),
             py::arg("sustained"), py::arg("critical_damage"), py::arg("bonus_flat"))
        .def_readonly("dice", &SideConfig::dice)
        .def_readonly("target", &SideConfig::target)
        .def_readonly("crit_face", &SideConfig::crit_face)
        .def_readonly("reroll", &SideConfig::reroll)
        .def_readonly("force", &SideConfig::force)
        .def_readonly("sustained", &SideConfig::sustained)
        .def_readonly("critical_damage", &SideConfig::critical_damage)
        .def_readonly("bonus_flat", &SideConfig::bonus_flat)
        .def(pickle_members(&SideConfig::dice, &SideConfig::target, &SideConfig::crit_face, &SideConfig::reroll,
                            &SideConfig::force, &SideConfig::sustained, &SideConfig::critical_damage,
                            &SideConfig::bonus_flat));

    py::class_<ExchangeRules>(m, "ExchangeRules", "The switches that change the exchange itself")
        .def(py::init([](WinnerDamage winner_damage, SustainedMode sustained_mode, bool bonus_always) {
                 return ExchangeRules{winner_damage, sustained_mode, bonus_always};
             }),
             py::arg("winner_damage"), py::arg("sustained_mode"), py::arg("bonus_always"))
        .def_readonly("winner_damage", &ExchangeRules::winner_damage)
        .def_readonly("sustained_mode", &ExchangeRules::sustained_mode)
        .def_readonly("bonus_always", &ExchangeRules::bonus_always)
        .def(pickle_members(&ExchangeRules::winner_damage, &ExchangeRules::sustained_mode, &ExchangeRules::bonus_always));

    py::class_<ExchangeConfig>(m, "ExchangeConfig", "One exchange: both sides and the rules")
        .def(py::init([](const SideConfig& a, const SideConfig& b, const ExchangeRules& rules) {
                 return ExchangeConfig{a, b, rules};
             }),
             py::arg("a"), py::arg("b"), py::arg("rules"))
        .def_readonly("a", &ExchangeConfig::a)
        .def_readonly("b", &ExchangeConfig::b)
        .def_readonly("rules", &ExchangeConfig::rules)
        .def(pickle_members(&ExchangeConfig::a, &ExchangeConfig::b, &ExchangeConfig::rules));

    py::class_<ExchangeLayout>(m, "ExchangeLayout",
                               "An exchange histogram: the damage table (damage to A x damage to B) from 0, "
                               "then the hits table (hits A x hits B) at hits_offset")
        .def_readonly("damage_a_bins", &ExchangeLayout::damage_a_bins)
        .def_readonly("damage_b_bins", &ExchangeLayout::damage_b_bins)
        .def_readonly("hits_a_bins", &ExchangeLayout::hits_a_bins)
        .def_readonly("hits_b_bins", &ExchangeLayout::hits_b_bins)
        .def_property_readonly("damage_cells", &ExchangeLayout::damage_cells)
        .def_property_readonly("hits_offset", &ExchangeLayout::hits_offset)
        .def_property_readonly("hits_cells", &ExchangeLayout::hits_cells)
        .def_property_readonly("total", &ExchangeLayout::total);

    py::class_<ExchangeOutcome>(m, "ExchangeOutcome", "Hits compared and damage taken in one exchange")
        .def_readonly("hits_a", &ExchangeOutcome::hits_a)
        .def_readonly("hits_b", &ExchangeOutcome::hits_b)
        .def_readonly("damage_to_a", &ExchangeOutcome::damage_to_a)
        .def_readonly("damage_to_b", &ExchangeOutcome::damage_to_b);

    py::class_<UnitConfig>(m, "UnitConfig", "A unit in allocation order (wounded models first)")
        .def(py::init([](int models, int hp, const std::vector<int>& current) {
                 // Python validates units; this guard only keeps a stray call from reading past the list.
                 if (models < 1 || models > kMaxModels || static_cast<int>(current.size()) != models)
                     throw py::value_error("current: expected one HP per model (1..30 models)");
                 return make_unit(models, hp, current.data());
             }),
             py::arg("models"), py::arg("hp"), py::arg("current"))
        .def_readonly("models", &UnitConfig::models)
        .def_readonly("hp", &UnitConfig::hp)
        .def_property_readonly("start", &start_hp, "Starting HP per model, in allocation order")
        .def_property_readonly("removed_bins", &UnitConfig::removed_bins, "Rows of the state table: models removed")
        .def_property_readonly("front_hp_bins", &UnitConfig::front_hp_bins,
                               "Columns of the state table: HP of the first living model")
        .def_property_readonly("state_count", &UnitConfig::state_count);

    py::class_<AllocationTable>(m, "AllocationTable", "One lump of each damage 0..max_damage on a fresh unit")
        .def_property_readonly("state", numpy_member(&AllocationTable::state), "State index (UnitConfig state table)")
        .def_property_readonly("removed", numpy_member(&AllocationTable::removed), "Models removed");

    py::class_<AllocationOutcome>(m, "AllocationOutcome", "Lumps allocated in order to a fresh unit")
        .def_readonly("removed", &AllocationOutcome::removed)
        .def_readonly("survivors", &AllocationOutcome::survivors)
        .def_readonly("lost", &AllocationOutcome::lost);

    py::class_<PairConfig>(m, "PairConfig", "Two engaged units (indices) and their exchange")
        .def(py::init([](int first, int second, const ExchangeConfig& exchange) {
                 return PairConfig{first, second, exchange};
             }),
             py::arg("first"), py::arg("second"), py::arg("exchange"));

    py::class_<MeleeConfig>(m, "MeleeConfig", "Several units, their engaged pairs and the allocation rule")
        .def(py::init([](const std::vector<UnitConfig>& units, const std::vector<PairConfig>& pairs,
                         Allocation allocation) { return MeleeConfig{units, pairs, allocation}; }),
             py::arg("units"), py::arg("pairs"), py::arg("allocation"));

    py::class_<MeleeLayout>(m, "MeleeLayout", "Offsets of every part of a melee histogram")
        .def_readonly("exchanges", &MeleeLayout::exchanges)
        .def_readonly("exchange_offset", &MeleeLayout::exchange_offset)
        .def_readonly("damage_bins", &MeleeLayout::damage_bins)
        .def_readonly("damage_offset", &MeleeLayout::damage_offset)
        .def_readonly("state_offset", &MeleeLayout::state_offset)
        .def_readonly("casualties_offset", &MeleeLayout::casualties_offset)
        .def_readonly("total", &MeleeLayout::total);

    m.def(
        "resolve",
        [](const SideConfig& a, int hits_a, int crits_a, const SideConfig& b, int hits_b, int crits_b,
           const ExchangeRules& rules) {
            return resolve_exchange(a, SideRoll{hits_a, crits_a}, b, SideRoll{hits_b, crits_b}, rules);
        },
        py::arg("a"), py::arg("hits_a"), py::arg("crits_a"), py::arg("b"), py::arg("hits_b"), py::arg("crits_b"),
        py::arg("rules"), "The engine's resolution function on rolled hits and crits");

    m.def("allocate", &allocate_lumps, py::arg("unit"), py::arg("lumps"), py::arg("allocation"),
          "Lumps of damage allocated in order to a fresh unit");
    m.def("allocation_table", &allocation_table, py::arg("unit"), py::arg("max_damage"), py::arg("allocation"),
          "One lump of each damage 0..max_damage on a fresh unit");

    m.def("exchange_layout", &exchange_layout, py::arg("config"));
    m.def("exchange_exact", released_to_numpy(&exchange_exact), py::arg("config"),
          "Exact probabilities of one exchange, laid out by exchange_layout");
    m.def(
        "exchange_exact_shaped",
        [](const ExchangeConfig& config) {
            const auto run = [&] { return exchange_tables(config); };
            return exchange_arrays(exchange_layout(config).total() <= kInlineCells ? on_calling_thread(run)
                                                                                   : without_gil(run));
        },
        py::arg("config"),
        "Exact (damage to A x damage to B, hits A x hits B) tables of one exchange; a small exchange runs on "
        "the calling thread");
    // Many exact exchanges (common.hpp's exact-batch convention): batch[i] is exchange_exact_shaped(configs[i]).
    bind_exact_batch<ExchangeConfig>(m, "exchange_exact_batch", "configs", &exchange_tables, &exchange_arrays,
                                     "Exact exchanges, each distinct config object once: batch[i] is "
                                     "exchange_exact_shaped(configs[i])");
    m.def("exchange_sample", released_to_numpy(&exchange_sample), py::arg("config"), py::arg("seed"),
          py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"),
          "Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` exchanges");

    m.def("melee_layout", &melee_layout, py::arg("config"));
    m.def(
        "exact_cells", [](const MeleeConfig& config) { return without_gil([&] { return exact_cells(config); }); },
        py::arg("config"), "Cells of the product of the exchanges' joint damage laws");
    m.def("melee_exact", released_to_numpy(&melee_exact), py::arg("config"),
          "Exact probabilities of a melee, laid out by melee_layout");
    m.def("melee_sample", released_to_numpy(&melee_sample), py::arg("config"), py::arg("seed"), py::arg("total"),
          py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"),
          "Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` melees");
}

}  // namespace mh::bindings
