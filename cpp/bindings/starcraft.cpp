// StarCraft TMG bindings: typed configs and layouts, the step functions, both engines and scripted
// resolution. Glue only: every rule and loop lives in cpp/starcraft/.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <cstddef>
#include <vector>

#include "bindings/common.hpp"
#include "bindings/fields.hpp"
#include "bindings/register.hpp"
#include "starcraft/allocation.hpp"
#include "starcraft/attack_tables.hpp"
#include "starcraft/config.hpp"
#include "starcraft/exact.hpp"
#include "starcraft/layout.hpp"
#include "starcraft/monte_carlo.hpp"
#include "starcraft/scripted.hpp"
#include "starcraft/steps.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

using TablesTuple = py::typing::Tuple<py::array_t<double>, py::typing::Tuple<int, py::ellipsis>, float, float,
                                      py::array_t<int64_t>>;

// (values, segment sizes, P(destroyed), P(Shielded lost), states as a 4 x n array): see AttackTables.
TablesTuple tables_tuple(const starcraft::AttackTables& t) {
    py::tuple sizes(t.sizes.size());
    for (std::size_t i = 0; i < t.sizes.size(); ++i) sizes[i] = py::int_(t.sizes[i]);
    const auto states = static_cast<py::ssize_t>(t.state_count());
    return TablesTuple(py::make_tuple(to_numpy(t.values), std::move(sizes), t.destroyed, t.shield_lost,
                                      to_numpy(t.states, {4, states})));
}

}  // namespace

void register_starcraft(py::module_ m) {
    using namespace mh::starcraft;

    py::enum_<SurgeKind>(m, "SurgeKind", "How a batch's Surge result is found (fixed: a template's affected models)")
        .value("none", SurgeKind::none)
        .value("d3", SurgeKind::d3)
        .value("d3_plus_1", SurgeKind::d3_plus_1)
        .value("d6", SurgeKind::d6)
        .value("fixed", SurgeKind::fixed);

    py::class_<AllocParams>(m, "AllocParams", "What allocation needs beyond the unit: caps, TD reductions, leftover rule")
        .def(py::init<>())
        .def_readwrite("concentrated_fire", &AllocParams::concentrated_fire)
        .def_readwrite("visible_models", &AllocParams::visible_models)
        .def_readwrite("engaged", &AllocParams::engaged)
        .def_readwrite("td_reduction", &AllocParams::td_reduction)
        .def_readwrite("td_floor", &AllocParams::td_floor)
        .def_readwrite("leftover_lost", &AllocParams::leftover_lost);

    py::class_<UnitProfile>(m, "UnitProfile", "HP and Shield of each model")
        .def(py::init<>())
        .def_readwrite("hp", &UnitProfile::hp)
        .def_readwrite("shield", &UnitProfile::shield);

    py::class_<UnitState>(m, "UnitState", "A unit between attacks")
        .def(py::init<>())
        .def_readwrite("models", &UnitState::models)
        .def_readwrite("marker", &UnitState::marker)
        .def_readwrite("shielded", &UnitState::shielded)
        .def_readwrite("first_model_alive", &UnitState::first_model_alive);

    py::class_<BatchConfig>(m, "BatchConfig", "One batch once profiles, keywords, grants and variants are combined")
        .def(py::init<>())
        .def_readwrite("roll_hits", &BatchConfig::roll_hits)
        .def_readwrite("dice_normal", &BatchConfig::dice_normal)
        .def_readwrite("dice_long", &BatchConfig::dice_long)
        .def_readwrite("hit_target_normal", &BatchConfig::hit_target_normal)
        .def_readwrite("hit_target_long", &BatchConfig::hit_target_long)
        .def_readwrite("precision", &BatchConfig::precision)
        .def_readwrite("crit_natural", &BatchConfig::crit_natural)
        .def_readwrite("critical_hit", &BatchConfig::critical_hit)
        .def_readwrite("surge_kind", &BatchConfig::surge_kind)
        .def_readwrite("surge_fixed", &BatchConfig::surge_fixed)
        .def_readwrite("dodge", &BatchConfig::dodge)
        .def_readwrite("armour_target", &BatchConfig::armour_target)
        .def_readwrite("tough", &BatchConfig::tough)
        .def_readwrite("evade", &BatchConfig::evade)
        .def_readwrite("evade_target", &BatchConfig::evade_target)
        .def_readwrite("damage_per_die", &BatchConfig::damage_per_die)
        .def_readwrite("alloc", &BatchConfig::alloc);

    // ---- results of single steps ----------------------------------------------------------------
    py::class_<Allocation>(m, "Allocation", "What allocate() did: the state after, casualties, flags")
        .def_readonly("state", &Allocation::state)
        .def_readonly("casualties", &Allocation::casualties)
        .def_readonly("destroyed", &Allocation::destroyed)
        .def_readonly("shield_lost", &Allocation::shield_lost);

    py::class_<BatchRoll>(m, "BatchRoll", "One batch resolved on dice, stage by stage")
        .def_readonly("dice", &BatchRoll::dice)
        .def_readonly("hits", &BatchRoll::hits)
        .def_readonly("surge", &BatchRoll::surge)
        .def_readonly("bypass", &BatchRoll::bypass)
        .def_readonly("armour_fails", &BatchRoll::armour_fails)
        .def_readonly("damage_pool", &BatchRoll::damage_pool)
        .def_readonly("inflicting", &BatchRoll::inflicting);

    py::class_<Resolution>(m, "Resolution", "A scripted batch: its roll, damage and allocation")
        .def_readonly("roll", &Resolution::roll)
        .def_readonly("damage", &Resolution::damage)
        .def_readonly("allocation", &Resolution::allocation)
        .def_readonly("faces_used", &Resolution::faces_used);

    py::class_<StateColumns>(m, "StateColumns", "Unit states as numpy columns, one entry per state")
        .def_property_readonly("models", numpy_member(&StateColumns::models))
        .def_property_readonly("marker", numpy_member(&StateColumns::marker))
        .def_property_readonly("shielded", numpy_member(&StateColumns::shielded))
        .def_property_readonly("first_model_alive", numpy_member(&StateColumns::first_model_alive));

    py::class_<AllocationTable>(m, "AllocationTable", "allocate() for damage k * damage_per_die, k = 0..k_max")
        .def_property_readonly("casualties", numpy_member(&AllocationTable::casualties))
        .def_readonly("state", &AllocationTable::state)
        .def_property_readonly("destroyed", numpy_member(&AllocationTable::destroyed))
        .def_property_readonly("shield_lost", numpy_member(&AllocationTable::shield_lost));

    // ---- where each histogram lives in the flat arrays the engines return -----------------------
    py::class_<AttackLayout>(m, "AttackLayout", "Offsets of one batch's stage histograms")
        .def_readonly("dice", &AttackLayout::dice)
        .def_readonly("surge_max", &AttackLayout::surge_max)
        .def_readonly("hits", &AttackLayout::hits)
        .def_readonly("surge", &AttackLayout::surge)
        .def_readonly("bypass", &AttackLayout::bypass)
        .def_readonly("armour_fails", &AttackLayout::armour_fails)
        .def_readonly("damage_pool", &AttackLayout::damage_pool)
        .def_readonly("inflicting", &AttackLayout::inflicting)
        .def_readonly("size", &AttackLayout::size);

    py::class_<BatchSlots>(m, "BatchSlots", "Offsets of one batch's marginals in a sequence")
        .def_readonly("damage", &BatchSlots::damage)
        .def_readonly("damage_size", &BatchSlots::damage_size)
        .def_readonly("casualties", &BatchSlots::casualties)
        .def_readonly("marker", &BatchSlots::marker)
        .def_readonly("destroyed", &BatchSlots::destroyed)
        .def_readonly("shield_lost", &BatchSlots::shield_lost);

    py::class_<SequenceLayout>(m, "SequenceLayout", "Offsets of a sequence's histograms; state index <-> state")
        .def_readonly("models", &SequenceLayout::models)
        .def_readonly("marker_max", &SequenceLayout::marker_max)
        .def_readonly("total_damage", &SequenceLayout::total_damage)
        .def_readonly("total_damage_size", &SequenceLayout::total_damage_size)
        .def_readonly("state", &SequenceLayout::state)
        .def_readonly("state_size", &SequenceLayout::state_size)
        .def_readonly("batches", &SequenceLayout::batches)
        .def_readonly("size", &SequenceLayout::size)
        .def("states", &SequenceLayout::states, "Every unit state, in the order of the state histogram");

    py::class_<AttackCase>(m, "AttackCase", "One batch against one unit in a state: what an exact attack needs")
        .def(py::init([](const BatchConfig& config, const UnitProfile& unit, const UnitState& state) {
                 return AttackCase{config, unit, state};
             }),
             py::arg("config"), py::arg("unit"), py::arg("state"))
        .def_readonly("config", &AttackCase::config)
        .def_readonly("unit", &AttackCase::unit)
        .def_readonly("state", &AttackCase::state)
        .def(pickle_members(&AttackCase::config, &AttackCase::unit, &AttackCase::state));

    // ---- step functions (sc.rules) --------------------------------------------------------------
    m.def("final_target", &final_target, py::arg("base"), py::arg("roll_mod"), py::arg("penalty"),
          "clamp(base - roll_mod + penalty, 2, 6)");
    m.def("p_success", &p_success, py::arg("target"), "Chance that one d6 meets the (clamped) target");
    m.def("surge_value", &surge_value, py::arg("kind"), py::arg("face"), "The Surge value a d6 face gives");
    m.def("precision_hits", &precision_hits, py::arg("dice"), py::arg("hits"), py::arg("x"),
          "hits + min(x, dice - hits)");
    m.def("bypass", &bypass, py::arg("hits"), py::arg("surge"), py::arg("crit"), py::arg("dodge"),
          "max(0, min(hits, surge + crit) - dodge)");
    m.def("tough", &tough, py::arg("fails"), py::arg("x"), "max(0, fails - x)");
    m.def("damage_per_die", &damage_per_die, py::arg("base"), py::arg("setter"), py::arg("cap"),
          "A setter (-1: none) replaces the damage, then a cap (-1: none) limits it");
    m.def("allocate", &allocate, py::arg("unit"), py::arg("state"), py::arg("damage"), py::arg("params"),
          "Allocate one attack's damage to a unit in a state");
    m.def("allocation_table", &allocation_table, py::arg("unit"), py::arg("state"), py::arg("params"),
          py::arg("damage_per_die"), py::arg("k_max"), "allocate() for damage k * damage_per_die, k = 0..k_max");

    // ---- engines --------------------------------------------------------------------------------
    m.def("attack_layout", &attack_layout, py::arg("config"));
    m.def("sequence_layout", &sequence_layout, py::arg("unit"), py::arg("state"), py::arg("batches"));
    m.def("exact_attack", released_to_numpy(&exact_attack), py::arg("config"),
          "Probabilities of every stage of one batch, laid out by attack_layout");
    // One exact attack shaped for its result (see AttackTables). It takes microseconds, so it runs on
    // the calling thread.
    m.def(
        "exact_attack_tables",
        [](const AttackCase& a) { return tables_tuple(on_calling_thread([&] { return exact_attack_tables(a); })); },
        py::arg("case"), "One exact attack as (values, segment sizes, P(destroyed), P(Shielded lost), states)");
    // Many exact attacks (common.hpp's exact-batch convention): batch[i] is exact_attack_tables(cases[i]).
    bind_exact_batch<AttackCase>(m, "exact_attack_tables_batch", "cases", &exact_attack_tables, &tables_tuple,
                                 "Exact attacks, each distinct case object once: batch[i] is "
                                 "exact_attack_tables(cases[i])");
    m.def("attack_tables",
          [](const AttackCase& a, const py::array_t<double, py::array::c_style | py::array::forcecast>& stages) {
              if (stages.ndim() != 1 || static_cast<std::size_t>(stages.size()) != attack_layout(a.config).size)
                  throw py::value_error("stages: expected a 1-D array of attack_layout(config).size values");
              return tables_tuple(attack_tables(a, std::vector<double>(stages.data(), stages.data() + stages.size())));
          },
          py::arg("case"), py::arg("stages"),
          "The result tables from stage histograms laid out by attack_layout (Monte Carlo frequencies)");
    m.def("exact_sequence", released_to_numpy(&exact_sequence), py::arg("unit"), py::arg("state"),
          py::arg("batches"), py::arg("max_work"),
          "Probabilities of a sequence, laid out by sequence_layout; empty when over max_work steps");
    m.def("sample_attack", released_to_numpy(&sample_attack), py::arg("config"), py::arg("seed"), py::arg("total"),
          py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"),
          "Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` batches");
    m.def("sample_sequence", released_to_numpy(&sample_sequence), py::arg("unit"), py::arg("state"),
          py::arg("batches"), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"),
          py::arg("threads"), "Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` sequences");
    m.def("resolve", &resolve_scripted, py::arg("config"), py::arg("unit"), py::arg("state"), py::arg("faces"),
          py::arg("every_face"), "One batch on scripted faces (every_face > 0: every die shows it)");
}

}  // namespace mh::bindings
