// pybind11 glue for Deathburgh: plain structs in, numpy arrays out. No game logic here.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "bindings/common.hpp"
#include "bindings/register.hpp"
#include "core/interrupt.hpp"
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
    m.attr("MODE_FROM_STATE") = kModeFromState;
    m.attr("MAX_EXACT_ROUND_STATES") = kMaxExactStates;

    m.def("pool_pmf", [](const PoolSpec& pool) {
        check_pool(pool);
        const std::vector<double> pmf = pool_pmf(pool);
        return to_numpy(pmf);
    });
    // Exact: (P[sA, sD], P[to defender, to attacker], P(sA), P(sD)). One combat takes a few
    // microseconds (20 dice a side at most), so it runs on the calling thread with the GIL released:
    // handing it to a helper thread would cost more than the combat.
    m.def(
        "combat_exact",
        [](const CombatSpec& spec) {
            ExactCombat exact;
            {
                py::gil_scoped_release release;
                exact = combat_exact(spec);
            }
            return exact_arrays(exact);
        },
        py::arg("spec"));
    // Many exact combats in one call, the GIL released and Ctrl-C honoured between combats. A spec
    // object given more than once (the Python side hands out one cached object per distinct combat)
    // is resolved once. Returns (values, shapes, slot): the arrays of each distinct combat one after
    // the other in `values` (successes grid, wounds grid, P(sA), P(sD), each in C order), their sizes
    // (successes rows, successes columns, wounds rows, wounds columns) in a row of `shapes`, and for
    // each spec the row of its combat. Three arrays, however many items: converting thousands of
    // small arrays would cost more than the combats.
    m.def(
        "combat_exact_batch",
        [](const std::vector<const CombatSpec*>& specs) {
            std::vector<int64_t> slot(specs.size());
            std::vector<int64_t> shapes;
            const std::vector<double> values = without_gil([&] {
                std::vector<double> out;
                std::unordered_map<const CombatSpec*, int64_t> seen;
                for (std::size_t i = 0; i < specs.size(); ++i) {
                    const auto [it, fresh] = seen.emplace(specs[i], static_cast<int64_t>(seen.size()));
                    if (fresh) {
                        check_interrupt();
                        const ExactCombat r = combat_exact(*specs[i]);
                        const CombatShape& s = r.shape;
                        shapes.insert(shapes.end(), {s.successes_attacker, s.successes_defender, s.wounds_defender,
                                                     s.wounds_attacker});
                        for (const std::vector<double>* part :
                             {&r.successes, &r.wounds, &r.successes_attacker, &r.successes_defender})
                            out.insert(out.end(), part->begin(), part->end());
                    }
                    slot[i] = it->second;
                }
                return out;
            });
            const auto rows = static_cast<py::ssize_t>(shapes.size() / 4);
            return py::typing::Tuple<py::array_t<double>, py::array_t<int64_t>, py::array_t<int64_t>>(
                py::make_tuple(to_numpy(values), to_numpy(shapes, {rows, py::ssize_t{4}}), to_numpy(slot)));
        },
        py::arg("specs"));
    m.def("combat_shape", [](const CombatSpec& spec) {
        const CombatShape s = combat_shape(spec);
        return py::make_tuple(s.successes_attacker, s.successes_defender, s.wounds_defender, s.wounds_attacker);
    });
    m.def(
        "combat_monte_carlo",
        [](const CombatSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
           int threads) {
            return to_numpy(without_gil([&] { return combat_monte_carlo(spec, seed, total, chunk_begin, chunk_end, threads); }));
        },
        py::arg("spec"), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"),
        py::arg("threads"));
    m.def(
        "round_exact",
        [](const RoundSpec& spec) {
            return to_numpy(without_gil([&] { return round_exact(spec); }));
        },
        py::arg("spec"));
    m.def(
        "round_monte_carlo",
        [](const RoundSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
           int threads) {
            return to_numpy(without_gil([&] { return round_monte_carlo(spec, seed, total, chunk_begin, chunk_end, threads); }));
        },
        py::arg("spec"), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"),
        py::arg("threads"));
}

}  // namespace mh::bindings
