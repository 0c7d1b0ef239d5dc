// pybind11 glue for the Force melee engine: config structs, layouts and the engine entry points.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <vector>

#include "bindings/numpy.hpp"
#include "bindings/register.hpp"
#include "force_melee/allocation.hpp"
#include "force_melee/exchange.hpp"
#include "force_melee/many.hpp"
#include "force_melee/resolve.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_force_melee(py::module_ m) {
    using namespace mh::force_melee;

    py::enum_<Reroll>(m, "Reroll").value("none", Reroll::none).value("fails", Reroll::fails).value("ones", Reroll::ones);
    py::enum_<WinnerDamage>(m, "WinnerDamage")
        .value("once", WinnerDamage::once)
        .value("excess", WinnerDamage::excess)
        .value("per_hit", WinnerDamage::per_hit)
        .value("pairing", WinnerDamage::pairing);
    py::enum_<Allocation>(m, "Allocation").value("spill", Allocation::spill).value("no_spill", Allocation::no_spill);
    py::enum_<SustainedMode>(m, "SustainedMode")
        .value("bonus", SustainedMode::bonus)
        .value("extra_hits", SustainedMode::extra_hits);

    py::class_<SideConfig>(m, "SideConfig")
        .def(py::init([](int dice, int target, int crit_face, Reroll reroll, int force, int sustained,
                         int critical_damage, int bonus_flat) {
                 return SideConfig{dice, target, crit_face, reroll, force, sustained, critical_damage, bonus_flat};
             }),
             py::arg("dice"), py::arg("target"), py::arg("crit_face"), py::arg("reroll"), py::arg("force"),
             py::arg("sustained"), py::arg("critical_damage"), py::arg("bonus_flat"))
        .def_readonly("dice", &SideConfig::dice)
        .def_readonly("target", &SideConfig::target)
        .def_readonly("crit_face", &SideConfig::crit_face)
        .def_readonly("force", &SideConfig::force);

    py::class_<ExchangeRules>(m, "ExchangeRules")
        .def(py::init([](WinnerDamage winner_damage, SustainedMode sustained_mode, bool bonus_always) {
                 return ExchangeRules{winner_damage, sustained_mode, bonus_always};
             }),
             py::arg("winner_damage"), py::arg("sustained_mode"), py::arg("bonus_always"));

    py::class_<ExchangeConfig>(m, "ExchangeConfig")
        .def(py::init([](const SideConfig& a, const SideConfig& b, const ExchangeRules& rules) {
                 return ExchangeConfig{a, b, rules};
             }),
             py::arg("a"), py::arg("b"), py::arg("rules"));

    py::class_<ExchangeLayout>(m, "ExchangeLayout")
        .def_readonly("damage_a_bins", &ExchangeLayout::damage_a_bins)
        .def_readonly("damage_b_bins", &ExchangeLayout::damage_b_bins)
        .def_readonly("hits_a_bins", &ExchangeLayout::hits_a_bins)
        .def_readonly("hits_b_bins", &ExchangeLayout::hits_b_bins)
        .def_property_readonly("total", &ExchangeLayout::total);

    py::class_<ExchangeOutcome>(m, "ExchangeOutcome")
        .def_readonly("hits_a", &ExchangeOutcome::hits_a)
        .def_readonly("hits_b", &ExchangeOutcome::hits_b)
        .def_readonly("damage_to_a", &ExchangeOutcome::damage_to_a)
        .def_readonly("damage_to_b", &ExchangeOutcome::damage_to_b);

    py::class_<UnitConfig>(m, "UnitConfig")
        .def(py::init([](int models, int hp, const std::vector<int>& current) {
                 // Python validates units; this guard only keeps a stray call from reading past the list.
                 if (models < 1 || models > kMaxModels || static_cast<int>(current.size()) != models)
                     throw py::value_error("current: expected one HP per model (1..30 models)");
                 return make_unit(models, hp, current.data());
             }),
             py::arg("models"), py::arg("hp"), py::arg("current"))
        .def_readonly("models", &UnitConfig::models)
        .def_readonly("hp", &UnitConfig::hp)
        .def_property_readonly("start", [](const UnitConfig& unit) {
            return std::vector<int>(unit.start.begin(), unit.start.begin() + unit.models);
        });

    py::class_<PairConfig>(m, "PairConfig")
        .def(py::init([](int first, int second, const ExchangeConfig& exchange) {
                 return PairConfig{first, second, exchange};
             }),
             py::arg("first"), py::arg("second"), py::arg("exchange"));

    py::class_<MeleeConfig>(m, "MeleeConfig")
        .def(py::init([](const std::vector<UnitConfig>& units, const std::vector<PairConfig>& pairs,
                         Allocation allocation) { return MeleeConfig{units, pairs, allocation}; }),
             py::arg("units"), py::arg("pairs"), py::arg("allocation"));

    py::class_<MeleeLayout>(m, "MeleeLayout")
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
        py::arg("rules"));

    m.def(
        "allocate",
        [](const UnitConfig& unit, const std::vector<int>& lumps, Allocation allocation) {
            UnitState state = fresh_state(unit);
            for (int lump : lumps) allocate(unit, state, lump, allocation);
            return py::make_tuple(state.removed, survivors(unit, state), state.lost);
        },
        py::arg("unit"), py::arg("lumps"), py::arg("allocation"));
    m.def(
        "allocation_table",
        [](const UnitConfig& unit, int max_damage, Allocation allocation) {
            return to_numpy(allocation_table(unit, max_damage, allocation));
        },
        py::arg("unit"), py::arg("max_damage"), py::arg("allocation"));

    m.def("exchange_layout", &exchange_layout, py::arg("config"));
    m.def(
        "exchange_exact",
        [](const ExchangeConfig& config) {
            std::vector<double> probs;
            {
                py::gil_scoped_release release;
                probs = exchange_exact(config);
            }
            return to_numpy(probs);
        },
        py::arg("config"));
    m.def(
        "exchange_sample",
        [](const ExchangeConfig& config, uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
           int threads) {
            std::vector<uint64_t> counts;
            {
                py::gil_scoped_release release;
                counts = exchange_sample(config, seed, total, chunk_begin, chunk_end, threads);
            }
            return to_numpy(counts);
        },
        py::arg("config"), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"),
        py::arg("threads"));

    m.def("melee_layout", &melee_layout, py::arg("config"));
    m.def(
        "exact_cells",
        [](const MeleeConfig& config) {
            py::gil_scoped_release release;
            return exact_cells(config);
        },
        py::arg("config"));
    m.def(
        "melee_exact",
        [](const MeleeConfig& config) {
            std::vector<double> probs;
            {
                py::gil_scoped_release release;
                probs = melee_exact(config);
            }
            return to_numpy(probs);
        },
        py::arg("config"));
    m.def(
        "melee_sample",
        [](const MeleeConfig& config, uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
           int threads) {
            std::vector<uint64_t> counts;
            {
                py::gil_scoped_release release;
                counts = melee_sample(config, seed, total, chunk_begin, chunk_end, threads);
            }
            return to_numpy(counts);
        },
        py::arg("config"), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"),
        py::arg("threads"));
}

}  // namespace mh::bindings
