// Kill Team's exact fight batch (kt.fight_batch): its items, made from their parts, and the batch
// call (common.hpp's exact-batch convention). Glue only: the engine is cpp/killteam/fight/batch.hpp.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <algorithm>
#include <stdexcept>

#include "bindings/common.hpp"
#include "bindings/register.hpp"
#include "killteam/fight/batch.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

// Item i's tuple, the very one fight_exact_shaped returns: (the joint wounds pmf or None, refused, states).
using FightItemResult = py::typing::Tuple<py::typing::Optional<py::array_t<double>>, int, double>;

kt::RetainedTable table_of(const py::array_t<double, py::array::c_style | py::array::forcecast>& array) {
    if (array.size() != kt::kTableSide * kt::kTableSide) {
        throw std::invalid_argument("dice table: expected a 13x13 array of probabilities");
    }
    kt::RetainedTable table{};
    std::copy(array.data(), array.data() + array.size(), table.begin());
    return table;
}

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
        [](const FightSpec& spec, const py::array_t<double, py::array::c_style | py::array::forcecast>& dice_a,
           const py::array_t<double, py::array::c_style | py::array::forcecast>& dice_b, int rounds,
           double work_limit, uint64_t max_states, uint64_t max_bytes) {
            return fight_exact_item(spec, table_of(dice_a), table_of(dice_b), rounds, work_limit,
                                    SolverBudget{max_states, max_bytes});
        },
        py::arg("spec"), py::arg("dice_a"), py::arg("dice_b"), py::arg("rounds"), py::arg("work_limit"),
        py::arg("max_states"), py::arg("max_bytes"),
        "An exact fight batch's item: the fight's spec, both dice tables, the rounds, the work limit (0: none) "
        "and the solver budget, as fight_exact_shaped takes them");

    bind_exact_batch_of<FightExactItem>(m, "fight_exact_batch", "items", &solve_fight_batch, &item_arrays,
                                     "Exact fights, each distinct item object once: batch[i] is the tuple "
                                     "fight_exact_shaped gives for items[i]",
                                     "FightExactBatch");
}

}  // namespace mh::bindings
