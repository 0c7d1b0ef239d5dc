#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/killteam.hpp"
#include "bindings/numpy.hpp"
#include "core/parallel.hpp"
#include "killteam/attack_dice.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_killteam_dice(py::module_ m) {
    using namespace mh::kt;
    m.attr("MAX_DICE") = kMaxDice;
    py::enum_<Reroll>(m, "Reroll")
        .value("none", Reroll::None)
        .value("balanced", Reroll::Balanced)
        .value("double_balanced", Reroll::DoubleBalanced)
        .value("ceaseless", Reroll::Ceaseless)
        .value("ceaseless_balanced", Reroll::CeaselessBalanced)
        .value("relentless", Reroll::Relentless)
        .value("relentless_crit_fishing", Reroll::RelentlessCritFishing)
        .value("reroll_ones", Reroll::RerollOnes)
        .value("reroll_ones_balanced", Reroll::RerollOnesBalanced);

    py::class_<AttackProfile>(m, "AttackProfile")
        .def(py::init<>())
        .def_readwrite("dice", &AttackProfile::dice)
        .def_readwrite("hit", &AttackProfile::hit)
        .def_readwrite("crit", &AttackProfile::crit)
        .def_readwrite("accurate", &AttackProfile::accurate)
        .def_readwrite("reroll", &AttackProfile::reroll)
        .def_readwrite("punishing", &AttackProfile::punishing)
        .def_readwrite("severe", &AttackProfile::severe)
        .def_readwrite("rending", &AttackProfile::rending)
        .def_readwrite("fails_to_norms", &AttackProfile::fails_to_norms)
        .def_readwrite("norms_to_crits", &AttackProfile::norms_to_crits)
        .def_readwrite("obscured", &AttackProfile::obscured);

    m.def("finish_roll",
          [](const AttackProfile& p, int c, int n, int f) {
              const Retained r = finish_roll(p, c, n, f);
              return py::make_tuple(r.crits, r.norms);
          },
          py::arg("profile"), py::arg("crits"), py::arg("norms"), py::arg("fails"));

    m.def("attack_distribution",
          [](const AttackProfile& p) {
              return to_numpy(attack_distribution(p), {kTableSide, kTableSide});
          },
          py::arg("profile"));

    // Monte Carlo histogram of retained (crits, norms), flattened like attack_distribution.
    m.def("attack_dice_counts",
          [](const AttackProfile& p, uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
             int threads) {
              std::vector<uint64_t> counts;
              {
                  py::gil_scoped_release release;
                  counts = run_chunks(seed, total, chunk_begin, chunk_end, kTableSide * kTableSide, threads,
                                      [&p](Rng& rng, uint64_t n, uint64_t* c) {
                                          DiceSource dice(rng);
                                          for (uint64_t i = 0; i < n; ++i) {
                                              const Retained r = roll_attack(p, dice);
                                              ++c[r.crits * kTableSide + r.norms];
                                          }
                                      });
              }
              return to_numpy(counts);
          },
          py::arg("profile"), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"),
          py::arg("threads"));
}

}  // namespace mh::bindings
