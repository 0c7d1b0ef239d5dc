// Kill Team attack dice bindings: the profile, the exact table and the Monte Carlo histogram.
// Glue only: every rule lives in cpp/killteam/dice/.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/common.hpp"
#include "bindings/fields.hpp"
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

    py::class_<AttackProfile> profile(m, "AttackProfile");
    profile.def(py::init<>());
    bind_fields(profile, kTagNames);
    profile.def("dice_table_key", [](const AttackProfile& p) { return detail::key_tuple(dice_table_key(p)); },
                "The key of the attack-dice table caches: the fields tagged dice_table");

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
