// Kill Team's exact fight batch (kt.fight_batch): its items, made from their parts, and the batch
// call (common.hpp's exact-batch convention). Glue only: the engine is cpp/killteam/fight/batch.hpp.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <optional>

#include "bindings/common.hpp"
#include "bindings/fight_dice.hpp"
#include "bindings/register.hpp"
#include "killteam/fight/batch.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

// Item i's tuple, the very one fight_exact_shaped returns: (the joint wounds pmf or None, refused, states).
using FightItemResult = py::typing::Tuple<py::typing::Optional<py::array_t<double>>, int, double>;

FightItemResult item_arrays(const kt::FightExactOutcome& out) {
    py::object pmf = py::none();
    if (!out.joint.empty()) pmf = to_numpy(out.joint, {out.rows, out.columns});
    return FightItemResult(py::make_tuple(std::move(pmf), out.solver_refused, out.solver_states));
}

}  // namespace

void register_killteam_fight_batch(py::module_ m) {
    using namespace mh::kt;
    py::class_<FightExactItem>(m, "FightExactItem", "One fight of an exact fight batch (fight_exact_item)")
        .def_property_readonly("rounds", [](const FightExactItem& item) { return item.rounds; })
        .def_property_readonly("work_limit", [](const FightExactItem& item) { return item.work_limit; });

    m.def(
        "fight_exact_item",
        [](const FightSpec& spec, const DiceArray& dice_a, const DiceArray& dice_b, int rounds, double work_limit,
           uint64_t max_states, uint64_t max_bytes, const std::optional<DiceArray>& injured_a,
           const std::optional<DiceArray>& injured_b) {
            return fight_exact_item(spec, fight_dice(dice_a, dice_b, injured_a, injured_b), rounds, work_limit,
                                    SolverBudget{max_states, max_bytes});
        },
        py::arg("spec"), py::arg("dice_a"), py::arg("dice_b"), py::arg("rounds"), py::arg("work_limit"),
        py::arg("max_states"), py::arg("max_bytes"), py::arg("injured_a") = py::none(),
        py::arg("injured_b") = py::none(),
        "An exact fight batch's item: the fight's spec, both dice tables, the rounds, the work limit (0: none), "
        "the solver budget and the injured dice tables (None: the fighter's own), as fight_exact_shaped takes them");

    bind_exact_batch_of<FightExactItem>(m, "fight_exact_batch", "items", &solve_fight_batch, &item_arrays,
                                     "Exact fights, each distinct item object once: batch[i] is the tuple "
                                     "fight_exact_shaped gives for items[i]",
                                     "FightExactBatch");
}

}  // namespace mh::bindings
