// Kill Team shooting bindings: the shot config, the blocks, both engines and the exact batch.
// Glue only: every rule and loop lives in cpp/killteam/shoot/.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include "bindings/common.hpp"
#include "bindings/fields.hpp"
#include "bindings/register.hpp"
#include "killteam/shoot/config.hpp"
#include "killteam/shoot/exact.hpp"
#include "killteam/shoot/monte_carlo.hpp"
#include "killteam/shoot/resolve.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

// A copy of item `index`'s tables, as shoot_exact_tables gives them.
kt::ShotTables item_tables(const kt::ShotTables& t) { return t; }

}  // namespace

void register_killteam_shoot(py::module_ m) {
    using namespace mh::kt;
    m.attr("MAX_ROUNDS") = kMaxRounds;
    m.attr("DEFENCE_DICE") = kDefenceDice;  // the saves tables are (DEFENCE_DICE + 1) x (DEFENCE_DICE + 1)

    py::enum_<BlockRule>(m, "BlockRule").value("optimal", BlockRule::Optimal).value("greedy", BlockRule::Greedy);
    py::enum_<ScratchTiming>(m, "ScratchTiming")
        .value("after_blocks", ScratchTiming::AfterBlocks)
        .value("before_blocks", ScratchTiming::BeforeBlocks);
    py::enum_<FnpRule>(m, "FnpRule")
        .value("per_damage_instance", FnpRule::PerDamageInstance)
        .value("per_hit", FnpRule::PerHit);

    py::class_<ShootConfig> config(m, "ShootConfig");
    config.def(py::init<>());
    bind_fields(config, kTagNames);
    config.def("blocks_key", [](const ShootConfig& c) { return detail::key_tuple(blocks_key(c)); },
               "The key of the blocks tables: the fields tagged blocks");

    // A shot's configuration from two partial ones (kt::shoot_config_join: the fields tagged weapon
    // from `weapon`, target from `target`, situation from the arguments): one call instead of some
    // thirty attribute writes from Python per distinct shot.
    m.def("shoot_config_join", &shoot_config_join, py::arg("weapon"), py::arg("target"), py::arg("cover"),
          py::arg("cover_crits"), py::arg("rounds"));

    // The defender's blocks for fixed dice: (blocked crits, blocked norms, unblocked crits,
    // unblocked norms after Just a Scratch, their damage after Durable).
    m.def("shoot_blocks",
          [](const ShootConfig& cfg, int crits, int norms, int crit_saves, int norm_saves) {
              const Blocks b = allocate_blocks(cfg, {crits, norms}, {crit_saves, norm_saves});
              return py::make_tuple(b.blocked.crits, b.blocked.norms, b.unblocked.crits, b.unblocked.norms,
                                    b.hit_damage);
          },
          py::arg("config"), py::arg("crits"), py::arg("norms"), py::arg("crit_saves"), py::arg("norm_saves"));

    // Exact: (P(total damage) 1-D, P(attack crits, norms) 13x13, P(crit saves, normal saves) 4x4,
    // P(the shooter's Hot damage) 1-D, empty without Hot).
    m.def("shoot_exact",
          [](const ShootConfig& cfg) {
              const ShootExact r = without_gil([&] { return shoot_exact(cfg); });
              return py::make_tuple(to_numpy(r.damage), to_numpy(r.attack, {kTableSide, kTableSide}),
                                    to_numpy(r.saves, {kSaveSide, kSaveSide}), to_numpy(r.self_damage));
          },
          py::arg("config"));

    // The exact shot as the result holds it (kt::ShotTables), each table made a numpy array when the
    // result first reads it. A single exact shot takes at most a few milliseconds, so it runs on the
    // calling thread.
    py::class_<ShotTables>(m, "ShotTables", "An exact shot's tables; each method returns a new numpy array")
        .def("damage", [](const ShotTables& t) { return to_numpy(t.damage); },
             "P(total damage), without its trailing zeros")
        .def("attack", [](const ShotTables& t) { return to_numpy(t.attack, {t.side, t.side}); },
             "P(retained crits, norms), side x side (side = the weapon's dice + 1)")
        .def("saves", [](const ShotTables& t) { return to_numpy(t.saves, {kSaveSide, kSaveSide}); },
             "P(crit saves, normal saves), cover saves included")
        .def("self_damage", [](const ShotTables& t) { return to_numpy(t.self_damage); },
             "P(the shooter's Hot damage), without its trailing zeros; empty without Hot");
    m.def(
        "shoot_exact_tables", [](const ShootConfig& cfg) { return on_calling_thread([&] { return exact_shot_tables(cfg); }); },
        py::arg("config"));

    // Many exact shots (common.hpp's exact-batch convention): batch[i] is shoot_exact_tables of item
    // i; batch.damage(i) and batch.self_damage(i) its pmfs alone (what a summary reads).
    bind_exact_batch<ShootConfig>(m, "shoot_exact_batch", "configs", &exact_shot_tables, &item_tables,
                                  "Exact shots, each distinct configuration object once: batch[i] is "
                                  "shoot_exact_tables(configs[i])")
        .def(
            "damage",
            [](const ExactBatch<ShotTables>& batch, py::ssize_t index) {
                return to_numpy(batch_item(batch, index).damage);
            },
            py::arg("index"))
        .def(
            "self_damage",
            [](const ExactBatch<ShotTables>& batch, py::ssize_t index) {
                return to_numpy(batch_item(batch, index).self_damage);
            },
            py::arg("index"), "Item i's Hot damage pmf alone (empty without Hot)")
        .def(
            "pmf_columns",
            [](const ExactBatch<ShotTables>& batch) {
                const Ragged damage = ragged(batch, &ShotTables::damage);
                const Ragged self_damage = ragged(batch, &ShotTables::self_damage);
                return py::make_tuple(to_numpy(batch.slot), to_numpy(damage.values), to_numpy(damage.offsets),
                                      to_numpy(self_damage.values), to_numpy(self_damage.offsets));
            },
            "(slots, damage values, damage offsets, Hot values, Hot offsets): every distinct result's damage "
            "and Hot pmfs end to end (mh::ragged), and which result each item is");

    m.def("shoot_self_damage_bins", &self_damage_bins, py::arg("config"),
          "The bins of the shooter's Hot damage at the end of shoot_counts' histogram (0 without Hot)");

    // Monte Carlo kernel: histogram laid out as shoot_histogram_bins describes.
    m.def("shoot_counts", released_to_numpy(&shoot_monte_carlo), py::arg("config"), py::arg("seed"), py::arg("total"),
          py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"),
          "Monte Carlo kernel: histogram laid out as shoot_histogram_bins describes");
}

}  // namespace mh::bindings
