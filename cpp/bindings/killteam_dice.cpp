// Kill Team attack dice bindings: the profile, the exact table and the Monte Carlo histogram.
// Glue only: every rule lives in cpp/killteam/dice/.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/common.hpp"
#include "bindings/register.hpp"
#include "killteam/dice/config.hpp"
#include "killteam/dice/exact.hpp"
#include "killteam/dice/monte_carlo.hpp"

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

    py::enum_<Upgrades>(m, "Upgrades")
        .value("accurate_first", Upgrades::AccurateFirst)
        .value("rolled_first", Upgrades::RolledFirst);
    py::enum_<Ones>(m, "Ones")
        .value("unmodified_ones", Ones::UnmodifiedOnes)
        .value("any_two_fails", Ones::AnyTwoFails);

    py::class_<AttackProfile>(m, "AttackProfile")
        .def(py::init<>())
        .def_readwrite("dice", &AttackProfile::dice)
        .def_readwrite("hit", &AttackProfile::hit)
        .def_readwrite("crit", &AttackProfile::crit)
        .def_readwrite("auto_crits", &AttackProfile::auto_crits)
        .def_readwrite("accurate", &AttackProfile::accurate)
        .def_readwrite("reroll", &AttackProfile::reroll)
        .def_readwrite("punishing", &AttackProfile::punishing)
        .def_readwrite("purity_seal", &AttackProfile::purity_seal)
        .def_readwrite("close_assault", &AttackProfile::close_assault)
        .def_readwrite("waaagh", &AttackProfile::waaagh)
        .def_readwrite("severe", &AttackProfile::severe)
        .def_readwrite("rending", &AttackProfile::rending)
        .def_readwrite("mystic_scry", &AttackProfile::mystic_scry)
        .def_readwrite("scry_crit_value", &AttackProfile::scry_crit_value)
        .def_readwrite("scry_norm_value", &AttackProfile::scry_norm_value)
        .def_readwrite("fails_to_norms", &AttackProfile::fails_to_norms)
        .def_readwrite("norms_to_crits", &AttackProfile::norms_to_crits)
        .def_readwrite("obscured", &AttackProfile::obscured)
        .def_readwrite("upgrades", &AttackProfile::upgrades)
        .def_readwrite("ones", &AttackProfile::ones);

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
