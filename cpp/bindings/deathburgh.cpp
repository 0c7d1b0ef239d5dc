// pybind11 glue for Deathburgh: plain structs in, numpy arrays out. No game logic here.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <vector>

#include "bindings/common.hpp"
#include "bindings/register.hpp"
#include "deathburgh/config.hpp"
#include "deathburgh/exact.hpp"
#include "deathburgh/layout.hpp"
#include "deathburgh/monte_carlo.hpp"
#include "deathburgh/pool.hpp"
#include "deathburgh/round.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

using CombatArrays =
    py::typing::Tuple<py::array_t<double>, py::array_t<double>, py::array_t<double>, py::array_t<double>>;

// One exact combat as fresh arrays: the successes grid, the wounds grid and the two successes laws.
CombatArrays exact_arrays(const deathburgh::ExactCombat& exact) {
    const deathburgh::CombatShape& s = exact.shape;
    return CombatArrays(py::make_tuple(to_numpy(exact.successes, {s.successes_attacker, s.successes_defender}),
                                       to_numpy(exact.wounds, {s.wounds_defender, s.wounds_attacker}),
                                       to_numpy(exact.successes_attacker, {s.successes_attacker}),
                                       to_numpy(exact.successes_defender, {s.successes_defender})));
}

}  // namespace

void register_deathburgh(py::module_ m) {
    using namespace mh::deathburgh;

    py::enum_<Reroll>(m, "Reroll")
        .value("none", Reroll::none)
        .value("all_fails", Reroll::all_fails)
        .value("one_fail", Reroll::one_fail);
    py::enum_<Edition>(m, "Edition").value("web", Edition::web).value("alpha", Edition::alpha);
    py::enum_<Reaction>(m, "Reaction")
        .value("attack", Reaction::attack)
        .value("dodge", Reaction::dodge)
        .value("none", Reaction::none);

    py::class_<PoolSpec>(m, "PoolSpec")
        .def(py::init<>())
        .def_readwrite("rolled", &PoolSpec::rolled)
        .def_readwrite("target", &PoolSpec::target)
        .def_readwrite("instant_crits", &PoolSpec::instant_crits)
        .def_readwrite("reroll", &PoolSpec::reroll)
        .def_readwrite("auto_hits", &PoolSpec::auto_hits)
        .def_readwrite("wound_cap", &PoolSpec::wound_cap);
    py::class_<OutcomeRules>(m, "OutcomeRules")
        .def(py::init<>())
        .def_readwrite("edition", &OutcomeRules::edition)
        .def_readwrite("reaction", &OutcomeRules::reaction)
        .def_readwrite("same_role", &OutcomeRules::same_role)
        .def_readwrite("draw_at_zero", &OutcomeRules::draw_at_zero)
        .def_readwrite("draw_in_dodge", &OutcomeRules::draw_in_dodge);
    py::class_<CombatSpec>(m, "CombatSpec")
        .def(py::init<>())
        .def_readwrite("attacker", &CombatSpec::attacker)
        .def_readwrite("defender", &CombatSpec::defender)
        .def_readwrite("rules", &CombatSpec::rules);
    py::class_<RoundCombat>(m, "RoundCombat")
        .def(py::init<>())
        .def_readwrite("attacker", &RoundCombat::attacker)
        .def_readwrite("defender", &RoundCombat::defender)
        .def_readwrite("attacker_mode", &RoundCombat::attacker_mode)
        .def_readwrite("defender_mode", &RoundCombat::defender_mode)
        .def_property(
            "attacker_pools", [](const RoundCombat& c) { return std::vector<PoolSpec>(c.attacker_pool, c.attacker_pool + 2); },
            [](RoundCombat& c, const std::vector<PoolSpec>& pools) {
                if (pools.size() != 2) throw py::value_error("attacker_pools: expected [aggressive, defensive]");
                c.attacker_pool[0] = pools[0];
                c.attacker_pool[1] = pools[1];
            })
        .def_property(
            "defender_pools", [](const RoundCombat& c) { return std::vector<PoolSpec>(c.defender_pool, c.defender_pool + 2); },
            [](RoundCombat& c, const std::vector<PoolSpec>& pools) {
                if (pools.size() != 2) throw py::value_error("defender_pools: expected [aggressive, defensive]");
                c.defender_pool[0] = pools[0];
                c.defender_pool[1] = pools[1];
            })
        .def_readwrite("rules", &RoundCombat::rules);
    py::class_<RoundSpec>(m, "RoundSpec")
        .def(py::init<>())
        .def_readwrite("start_wounds", &RoundSpec::start_wounds)
        .def_readwrite("combats", &RoundSpec::combats);

    m.attr("MAX_DICE") = kMaxDice;
    m.attr("MAX_MINIATURES") = kMaxMiniatures;
    m.attr("MAX_COMBATS") = kMaxCombats;
    m.attr("MAX_WOUNDS") = kMaxWounds;
    m.attr("MODE_FROM_STATE") = kModeFromState;
    m.attr("MAX_EXACT_ROUND_STATES") = kMaxExactStates;

    m.def("pool_pmf", [](const PoolSpec& pool) { return to_numpy(checked_pool_pmf(pool)); });
    // Exact: (P[sA, sD], P[to defender, to attacker], P(sA), P(sD)). One combat takes a few
    // microseconds (20 dice a side at most), so it runs on the calling thread.
    m.def(
        "combat_exact",
        [](const CombatSpec& spec) { return exact_arrays(on_calling_thread([&] { return combat_exact(spec); })); },
        py::arg("spec"));
    // Many exact combats (common.hpp's exact-batch convention): batch[i] is combat_exact(specs[i]).
    bind_exact_batch<CombatSpec>(m, "combat_exact_batch", "specs", &combat_exact, &exact_arrays,
                                 "Exact combats, each distinct spec object once: batch[i] is combat_exact(specs[i])");
    m.def("combat_shape", [](const CombatSpec& spec) {
        const CombatShape s = combat_shape(spec);
        return py::make_tuple(s.successes_attacker, s.successes_defender, s.wounds_defender, s.wounds_attacker);
    });
    m.def("combat_monte_carlo", released_to_numpy(&combat_monte_carlo), py::arg("spec"), py::arg("seed"),
          py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"));
    m.def("round_exact", released_to_numpy(&round_exact), py::arg("spec"));
    m.def("round_monte_carlo", released_to_numpy(&round_monte_carlo), py::arg("spec"), py::arg("seed"),
          py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"));
}

}  // namespace mh::bindings
