// StarCraft TMG bindings: plain structs, the step functions, both engines and scripted resolution.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/numpy.hpp"
#include "bindings/register.hpp"
#include "starcraft/engines.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

using namespace mh::starcraft;

py::dict attack_layout_dict(const AttackLayout& l) {
    py::dict d;
    d["dice"] = l.dice;
    d["surge_max"] = l.surge_max;
    d["hits"] = l.hits;
    d["surge"] = l.surge;
    d["bypass"] = l.bypass;
    d["armour_fails"] = l.armour_fails;
    d["damage_pool"] = l.damage_pool;
    d["inflicting"] = l.inflicting;
    d["size"] = l.size;
    return d;
}

py::dict sequence_layout_dict(const SequenceLayout& l) {
    py::dict d;
    d["models"] = l.models;
    d["marker_max"] = l.marker_max;
    d["total_damage"] = l.total_damage;
    d["total_damage_size"] = l.total_damage_size;
    d["state"] = l.state;
    d["state_size"] = l.state_size;
    py::list batches;
    for (const auto& b : l.batches) {
        py::dict s;
        s["damage"] = b.damage;
        s["damage_size"] = b.damage_size;
        s["casualties"] = b.casualties;
        s["marker"] = b.marker;
        s["destroyed"] = b.destroyed;
        s["shield_lost"] = b.shield_lost;
        batches.append(s);
    }
    d["batches"] = batches;
    d["size"] = l.size;
    return d;
}

py::dict allocation_dict(const Allocation& a) {
    py::dict d;
    d["casualties"] = a.casualties;
    d["models"] = a.state.models;
    d["marker"] = a.state.marker;
    d["shielded"] = a.state.shielded;
    d["first_model_alive"] = a.state.first_model_alive;
    d["destroyed"] = a.destroyed;
    d["shield_lost"] = a.shield_lost;
    return d;
}

}  // namespace

void register_starcraft(py::module_ m) {
    py::class_<AllocParams>(m, "AllocParams")
        .def(py::init<>())
        .def_readwrite("concentrated_fire", &AllocParams::concentrated_fire)
        .def_readwrite("visible_models", &AllocParams::visible_models)
        .def_readwrite("engaged", &AllocParams::engaged)
        .def_readwrite("td_reduction", &AllocParams::td_reduction)
        .def_readwrite("td_floor", &AllocParams::td_floor)
        .def_readwrite("leftover_lost", &AllocParams::leftover_lost);

    py::class_<UnitProfile>(m, "UnitProfile")
        .def(py::init<>())
        .def_readwrite("hp", &UnitProfile::hp)
        .def_readwrite("shield", &UnitProfile::shield);

    py::class_<UnitState>(m, "UnitState")
        .def(py::init<>())
        .def_readwrite("models", &UnitState::models)
        .def_readwrite("marker", &UnitState::marker)
        .def_readwrite("shielded", &UnitState::shielded)
        .def_readwrite("first_model_alive", &UnitState::first_model_alive);

    py::class_<BatchConfig>(m, "BatchConfig")
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

    // Step functions (sc.rules); surge kinds are SurgeKind values.
    m.def("final_target", &final_target, py::arg("base"), py::arg("roll_mod"), py::arg("penalty"));
    m.def("p_success", &p_success, py::arg("target"));
    m.def("surge_value", [](int kind, int face) { return surge_value(static_cast<SurgeKind>(kind), face); },
          py::arg("kind"), py::arg("face"));
    m.def("precision_hits", &precision_hits, py::arg("dice"), py::arg("hits"), py::arg("x"));
    m.def("bypass", &bypass, py::arg("hits"), py::arg("surge"), py::arg("crit"), py::arg("dodge"));
    m.def("tough", &tough, py::arg("fails"), py::arg("x"));
    m.def("damage_per_die", &damage_per_die, py::arg("base"), py::arg("setter"), py::arg("cap"));
    m.def("allocate",
          [](const UnitProfile& unit, const UnitState& state, int damage, const AllocParams& p) {
              return allocation_dict(allocate(unit, state, damage, p));
          },
          py::arg("unit"), py::arg("state"), py::arg("damage"), py::arg("params"));
    // allocate() for damage = k * damage_per_die, k = 0..k_max: columns casualties, models, marker,
    // shielded, first_model_alive, destroyed, shield_lost.
    m.def("allocation_table",
          [](const UnitProfile& unit, const UnitState& state, const AllocParams& p, int damage_per_die, int k_max) {
              py::array_t<int> out({k_max + 1, 7});
              auto t = out.mutable_unchecked<2>();
              for (int k = 0; k <= k_max; ++k) {
                  const Allocation a = allocate(unit, state, k * damage_per_die, p);
                  t(k, 0) = a.casualties;
                  t(k, 1) = a.state.models;
                  t(k, 2) = a.state.marker;
                  t(k, 3) = a.state.shielded;
                  t(k, 4) = a.state.first_model_alive;
                  t(k, 5) = a.destroyed;
                  t(k, 6) = a.shield_lost;
              }
              return out;
          },
          py::arg("unit"), py::arg("state"), py::arg("params"), py::arg("damage_per_die"), py::arg("k_max"));

    m.def("attack_layout", [](const BatchConfig& c) { return attack_layout_dict(attack_layout(c)); }, py::arg("config"));
    m.def("sequence_layout",
          [](const UnitProfile& u, const UnitState& s, const std::vector<BatchConfig>& b) {
              return sequence_layout_dict(sequence_layout(u, s, b));
          },
          py::arg("unit"), py::arg("state"), py::arg("batches"));

    m.def("exact_attack",
          [](const BatchConfig& c) {
              std::vector<double> out;
              {
                  py::gil_scoped_release release;
                  out = exact_attack(c);
              }
              return to_numpy(out);
          },
          py::arg("config"));
    m.def("exact_sequence",
          [](const UnitProfile& u, const UnitState& s, const std::vector<BatchConfig>& b, double max_work) {
              std::vector<double> out;
              {
                  py::gil_scoped_release release;
                  out = exact_sequence(u, s, b, max_work);
              }
              return to_numpy(out);
          },
          py::arg("unit"), py::arg("state"), py::arg("batches"), py::arg("max_work"));

    m.def("sample_attack",
          [](const BatchConfig& c, uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
             int threads) {
              std::vector<uint64_t> counts;
              {
                  py::gil_scoped_release release;
                  counts = sample_attack(c, seed, total, chunk_begin, chunk_end, threads);
              }
              return to_numpy(counts);
          },
          py::arg("config"), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"),
          py::arg("threads"));
    m.def("sample_sequence",
          [](const UnitProfile& u, const UnitState& s, const std::vector<BatchConfig>& b, uint64_t seed,
             uint64_t total, uint64_t chunk_begin, uint64_t chunk_end, int threads) {
              std::vector<uint64_t> counts;
              {
                  py::gil_scoped_release release;
                  counts = sample_sequence(u, s, b, seed, total, chunk_begin, chunk_end, threads);
              }
              return to_numpy(counts);
          },
          py::arg("unit"), py::arg("state"), py::arg("batches"), py::arg("seed"), py::arg("total"),
          py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"));

    // One batch on scripted faces (a list, or every_face > 0 for every die), then its allocation.
    m.def("resolve",
          [](const BatchConfig& c, const UnitProfile& u, const UnitState& s, const std::vector<int>& faces,
             int every_face) {
              ScriptedDice dice(faces, every_face);
              const BatchRoll r = roll_batch(c, dice);
              const int damage = r.inflicting * c.damage_per_die;
              py::dict d = allocation_dict(allocate(u, s, damage, c.alloc));
              d["dice"] = r.dice;
              d["hits"] = r.hits;
              d["surge"] = r.surge;
              d["bypass"] = r.bypass;
              d["armour_fails"] = r.armour_fails;
              d["damage_pool"] = r.damage_pool;
              d["evaded"] = r.damage_pool - r.inflicting;
              d["inflicting"] = r.inflicting;
              d["damage"] = damage;
              d["faces_used"] = dice.used();
              return d;
          },
          py::arg("config"), py::arg("unit"), py::arg("state"), py::arg("faces"), py::arg("every_face"));
}

}  // namespace mh::bindings
