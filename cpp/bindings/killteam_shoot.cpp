#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include "bindings/killteam.hpp"
#include "bindings/common.hpp"
#include "killteam/shoot/config.hpp"
#include "killteam/shoot/exact.hpp"
#include "killteam/shoot/monte_carlo.hpp"
#include "killteam/shoot/resolve.hpp"

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "core/interrupt.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

using ShotArrays = py::typing::Tuple<py::array_t<double>, py::array_t<double>, py::array_t<double>>;

// The exact shot as the result classes hold it: the damage pmf without its trailing zeros (it always
// has some mass), the attack table cut to the weapon's dice, and the saves table.
py::array_t<double> trimmed_damage(const kt::ShootExact& r) {
    std::size_t used = r.damage.size();
    while (used > 1 && r.damage[used - 1] == 0.0) --used;
    return py::array_t<double>(static_cast<py::ssize_t>(used), r.damage.data());
}

ShotArrays shaped_exact_shot(const kt::ShootExact& r, int dice) {
    py::array_t<double> damage = trimmed_damage(r);
    const int side = std::min(dice + 1, kt::kTableSide);
    py::array_t<double> attack({side, side});
    double* out = attack.mutable_data();
    for (int c = 0; c < side; ++c)
        for (int n = 0; n < side; ++n) out[c * side + n] = r.attack[static_cast<std::size_t>(c * kt::kTableSide + n)];
    return ShotArrays(py::make_tuple(std::move(damage), std::move(attack),
                                     to_numpy(r.saves, {kt::kSaveSide, kt::kSaveSide})));
}

// The exact shots of one batch: results[slot[i]] is item i's, for a weapon of dice[i] dice.
struct ExactShots {
    std::vector<kt::ShootExact> results;
    std::vector<std::size_t> slot;
    std::vector<int> dice;
};

}  // namespace

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

    // A shot's configuration from two partial ones: the attack dice, damage, weapon rules and rule
    // variants of `weapon`; the save and the abilities of `target`; and the situation. One call
    // instead of some thirty attribute writes from Python per distinct shot.
    m.def("shoot_config_join",
          [](const ShootConfig& weapon, const ShootConfig& target, int cover, int cover_crits, int rounds) {
              ShootConfig c = weapon;
              c.save = target.save;
              c.hardy = target.hardy;
              c.save_reroll = target.save_reroll;
              c.defender_punishing = target.defender_punishing;
              c.indomitus = target.indomitus;
              c.save_fails_to_norms = target.save_fails_to_norms;
              c.save_norms_to_crits = target.save_norms_to_crits;
              c.just_a_scratch = target.just_a_scratch;
              c.just_a_scratch_normals = target.just_a_scratch_normals;
              c.durable = target.durable;
              c.feel_no_pain = target.feel_no_pain;
              c.saintly_relics = target.saintly_relics;
              c.cover = cover;
              c.cover_crits = cover_crits;
              c.rounds = rounds;
              return c;
          },
          py::arg("weapon"), py::arg("target"), py::arg("cover"), py::arg("cover_crits"), py::arg("rounds"));

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

    // The exact shot shaped for the result: (damage pmf without trailing zeros, attack table cut to
    // the weapon's dice, saves table). A single exact shot takes at most a few milliseconds, so it
    // runs on the calling thread (GIL released): a helper thread would cost more than the shot.
    m.def("shoot_exact_shaped",
          [](const ShootConfig& cfg) {
              ShootExact r;
              {
                  py::gil_scoped_release release;
                  r = shoot_exact(cfg);
              }
              return shaped_exact_shot(r, cfg.attack.dice);
          },
          py::arg("config"));

    // Many exact shots in one call, the GIL released and Ctrl-C honoured between shots. A
    // configuration object given more than once (the Python side hands out one cached object per
    // distinct shot) is resolved once. The arrays of item i (shoot_exact_shaped's tuple) are made when
    // asked for: a sweep or a batch whose items are never looked at does not pay for them.
    py::class_<ExactShots>(m, "ExactShots")
        .def("__len__", [](const ExactShots& s) { return s.slot.size(); })
        .def("shaped",
             [](const ExactShots& s, std::size_t i) {
                 if (i >= s.slot.size()) throw py::index_error("shot index out of range");
                 return shaped_exact_shot(s.results[s.slot[i]], s.dice[i]);
             },
             py::arg("index"))
        // the damage pmf alone, as in shaped(index) (what a summary reads)
        .def("damage",
             [](const ExactShots& s, std::size_t i) {
                 if (i >= s.slot.size()) throw py::index_error("shot index out of range");
                 return trimmed_damage(s.results[s.slot[i]]);
             },
             py::arg("index"));
    m.def("shoot_exact_batch",
          [](const std::vector<const ShootConfig*>& configs) {
              return without_gil([&] {
                  ExactShots shots;
                  shots.slot.resize(configs.size());
                  shots.dice.resize(configs.size());
                  std::unordered_map<const ShootConfig*, std::size_t> seen;
                  for (std::size_t i = 0; i < configs.size(); ++i) {
                      const auto [it, fresh] = seen.emplace(configs[i], shots.results.size());
                      if (fresh) {
                          check_interrupt();
                          shots.results.push_back(shoot_exact(*configs[i]));
                      }
                      shots.slot[i] = it->second;
                      shots.dice[i] = configs[i]->attack.dice;
                  }
                  return shots;
              });
          },
          py::arg("configs"));

    // Monte Carlo kernel: histogram laid out as shoot_histogram_bins describes.
    m.def("shoot_counts", released_to_numpy(&shoot_monte_carlo), py::arg("config"), py::arg("seed"), py::arg("total"),
          py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"),
          "Monte Carlo kernel: histogram laid out as shoot_histogram_bins describes");
}

}  // namespace mh::bindings
