#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/killteam.hpp"
#include "bindings/numpy.hpp"
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

    m.def("attack_dice_counts", released_to_numpy(&attack_dice_counts), py::arg("profile"), py::arg("seed"),
          py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"),
          "Monte Carlo histogram of retained (crits, norms), flattened like attack_distribution");
}

}  // namespace mh::bindings
