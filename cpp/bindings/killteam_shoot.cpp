#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/killteam.hpp"
#include "bindings/numpy.hpp"
#include "killteam/shoot.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_killteam_shoot(py::module_ m) {
    using namespace mh::kt;
    m.attr("MAX_ROUNDS") = kMaxRounds;

    py::enum_<BlockRule>(m, "BlockRule").value("optimal", BlockRule::Optimal).value("greedy", BlockRule::Greedy);
    py::enum_<ScratchTiming>(m, "ScratchTiming")
        .value("after_blocks", ScratchTiming::AfterBlocks)
        .value("before_blocks", ScratchTiming::BeforeBlocks);
    py::enum_<FnpRule>(m, "FnpRule")
        .value("per_damage_instance", FnpRule::PerDamageInstance)
        .value("per_hit", FnpRule::PerHit);

    py::class_<ShootConfig>(m, "ShootConfig")
        .def(py::init<>())
        .def_readwrite("attack", &ShootConfig::attack)
        .def_readwrite("normal_damage", &ShootConfig::normal_damage)
        .def_readwrite("critical_damage", &ShootConfig::critical_damage)
        .def_readwrite("devastating", &ShootConfig::devastating)
        .def_readwrite("piercing", &ShootConfig::piercing)
        .def_readwrite("piercing_crits", &ShootConfig::piercing_crits)
        .def_readwrite("saturate", &ShootConfig::saturate)
        .def_readwrite("save", &ShootConfig::save)
        .def_readwrite("cover", &ShootConfig::cover)
        .def_readwrite("cover_crits", &ShootConfig::cover_crits)
        .def_readwrite("hardy", &ShootConfig::hardy)
        .def_readwrite("save_reroll", &ShootConfig::save_reroll)
        .def_readwrite("defender_punishing", &ShootConfig::defender_punishing)
        .def_readwrite("indomitus", &ShootConfig::indomitus)
        .def_readwrite("save_fails_to_norms", &ShootConfig::save_fails_to_norms)
        .def_readwrite("save_norms_to_crits", &ShootConfig::save_norms_to_crits)
        .def_readwrite("ones", &ShootConfig::ones)
        .def_readwrite("blocks", &ShootConfig::blocks)
        .def_readwrite("scratch", &ShootConfig::scratch)
        .def_readwrite("fnp", &ShootConfig::fnp)
        .def_readwrite("just_a_scratch", &ShootConfig::just_a_scratch)
        .def_readwrite("just_a_scratch_normals", &ShootConfig::just_a_scratch_normals)
        .def_readwrite("durable", &ShootConfig::durable)
        .def_readwrite("feel_no_pain", &ShootConfig::feel_no_pain)
        .def_readwrite("saintly_relics", &ShootConfig::saintly_relics)
        .def_readwrite("rounds", &ShootConfig::rounds);

    m.def("shoot_max_attack_damage", &max_attack_damage, py::arg("config"));

    // The defender's blocks for fixed dice: (blocked crits, blocked norms, unblocked crits,
    // unblocked norms after Just a Scratch, their damage after Durable).
    m.def("shoot_blocks",
          [](const ShootConfig& cfg, int crits, int norms, int crit_saves, int norm_saves) {
              const Blocks b = allocate_blocks(cfg, {crits, norms}, {crit_saves, norm_saves});
              return py::make_tuple(b.blocked.crits, b.blocked.norms, b.unblocked.crits, b.unblocked.norms,
                                    b.hit_damage);
          },
          py::arg("config"), py::arg("crits"), py::arg("norms"), py::arg("crit_saves"), py::arg("norm_saves"));

    // Exact: (P(total damage) 1-D, P(attack crits, norms) 13x13, P(crit saves, normal saves) 4x4).
    m.def("shoot_exact",
          [](const ShootConfig& cfg) {
              const ShootExact r = without_gil([&] { return shoot_exact(cfg); });
              return py::make_tuple(to_numpy(r.damage), to_numpy(r.attack, {kTableSide, kTableSide}),
                                    to_numpy(r.saves, {kSaveSide, kSaveSide}));
          },
          py::arg("config"));

    // Monte Carlo kernel: histogram laid out as shoot_histogram_bins describes.
    m.def("shoot_counts", released_to_numpy(&shoot_monte_carlo), py::arg("config"), py::arg("seed"), py::arg("total"),
          py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"),
          "Monte Carlo kernel: histogram laid out as shoot_histogram_bins describes");
}

}  // namespace mh::bindings
