// Kill Team fight bindings: fighter and fight specs, the exact engine, the Monte Carlo engine,
// advice and the logged round. Glue only: every rule and loop lives in cpp/killteam/fight/.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <memory>
#include <optional>
#include <string>

#include "bindings/common.hpp"
#include "bindings/fields.hpp"
#include "bindings/fight_dice.hpp"
#include "bindings/register.hpp"
#include "killteam/fight/exact.hpp"
#include "killteam/fight/log.hpp"
#include "killteam/fight/monte_carlo.hpp"
#include "killteam/fight/optimal.hpp"

namespace py = pybind11;

namespace mh::bindings {

namespace {

// Return types spelled out so the stubs of mathhammer._core carry them.
using FightExactResult = py::typing::Tuple<py::typing::Optional<py::array_t<double>>, py::typing::Dict<std::string, double>>;
using FightShapedResult = py::typing::Tuple<py::typing::Optional<py::array_t<double>>, int, double>;
using MoveRow = py::typing::Tuple<std::string, double, double, double, double, bool>;
using AdviseResult = py::typing::Tuple<py::typing::Optional<std::string>, py::typing::List<MoveRow>,
                                       py::typing::Dict<std::string, std::string>>;
using ActionRow = py::typing::Tuple<std::string, std::string, int>;
using ResolveFightResult = py::typing::Tuple<int, int, py::typing::List<ActionRow>, py::typing::Tuple<int, int>>;

}  // namespace

void register_killteam_fight(py::module_ m) {
    using namespace mh::kt;
    m.attr("MAX_FIGHT_WOUNDS") = kMaxFightWounds;

    py::enum_<Strategy>(m, "Strategy")
        .value("strike", Strategy::Strike)
        .value("parry", Strategy::Parry)
        .value("max_damage", Strategy::MaxDamage)
        .value("min_damage", Strategy::MinDamage)
        .value("optimal", Strategy::Optimal);

    py::enum_<Objective>(m, "Objective")
        .value("trade", Objective::Trade)
        .value("net", Objective::Net)
        .value("kill", Objective::Kill)
        .value("survive", Objective::Survive);

    py::class_<FighterSpec> fighter(m, "FighterSpec");
    fighter.def(py::init<>());
    bind_fields(fighter, kTagNames);

    py::enum_<ShockRule>(m, "ShockRule")
        .value("discard_crit", ShockRule::DiscardCrit)
        .value("norms_only", ShockRule::NormsOnly);
    py::enum_<LethalTest>(m, "LethalTest")
        .value("real_damage", LethalTest::RealDamage)
        .value("nominal", LethalTest::Nominal);
    py::enum_<DuelistRule>(m, "DuelistRule")
        .value("never_parry_nothing", DuelistRule::NeverParryNothing)
        .value("always", DuelistRule::Always);
    py::enum_<DurableRule>(m, "DurableRule")
        .value("after_damage_modifiers", DurableRule::AfterDamageModifiers)
        .value("before_damage_modifiers", DurableRule::BeforeDamageModifiers);
    py::enum_<Lookahead>(m, "Lookahead").value("fixed", Lookahead::Fixed).value("rolled", Lookahead::Rolled);

    py::class_<FightSpec> spec(m, "FightSpec");
    spec.def(py::init<>())
        .def_property(
            "fighter_a", [](const FightSpec& s) { return s.fighter[0]; },
            [](FightSpec& s, const FighterSpec& f) { s.fighter[0] = f; })
        .def_property(
            "fighter_b", [](const FightSpec& s) { return s.fighter[1]; },
            [](FightSpec& s, const FighterSpec& f) { s.fighter[1] = f; });
    bind_fields(spec, kTagNames);
    m.def("injured_profile", &injured_profile, py::arg("profile"),
          "The attack dice a fighter rolls in a round it starts injured (docs/rules/killteam.md §3.9)");
    m.def("same_decision_rules", &same_decision_rules, py::arg("x"), py::arg("y"),
          "Whether two fight specs agree on every field tagged decisions (their decisions are shared)");

    m.def(
        "fight_exact",
        [](const FightSpec& spec, const DiceArray& dice_a, const DiceArray& dice_b, int rounds, double work_limit,
           std::size_t cache_entries, uint64_t max_states, uint64_t max_bytes, bool reuse_decisions,
           const std::optional<DiceArray>& injured_a, const std::optional<DiceArray>& injured_b) -> FightExactResult {
            const FightDice dice = fight_dice(dice_a, dice_b, injured_a, injured_b);
            ExactWork work;
            const SolverBudget budget{max_states, max_bytes};
            const std::vector<double> joint = without_gil(
                [&] { return fight_exact(spec, dice, rounds, &work, work_limit, cache_entries, budget, reuse_decisions); });
            py::typing::Dict<std::string, double> stats;
            stats["resolutions"] = work.resolutions;
            stats["chance_states"] = work.chance_states;
            stats["decisions"] = work.decisions;
            stats["units"] = work.units();
            stats["solver_states"] = work.solver_states;
            stats["solver_bytes"] = work.solver_bytes;
            stats["solver_refused"] = work.solver_refused;
            if (joint.empty()) return FightExactResult(py::make_tuple(py::none(), stats));
            return FightExactResult(
                py::make_tuple(to_numpy(joint, {spec.wounds_rows(), spec.wounds_columns()}), stats));
        },
        py::arg("spec"), py::arg("dice_a"), py::arg("dice_b"), py::arg("rounds"), py::arg("work_limit") = 0.0,
        py::arg("cache_entries") = 0, py::arg("max_states") = 0, py::arg("max_bytes") = 0,
        py::arg("reuse_decisions") = false, py::arg("injured_a") = py::none(), py::arg("injured_b") = py::none(),
        "Joint wounds pmf (None past work_limit or the solver budget; 0: unbounded) and what the engine did; "
        "injured_a / injured_b: the dice tables of an injured fighter (None: its own)");

    // The exact fight as kt.fight uses it: (the joint wounds pmf, a (A's wounds + 1) x (B's wounds + 1)
    // array, or None past work_limit or the solver budget; solver_refused: 1 states, 2 bytes, 0 not;
    // the solver's states). Decisions are kept for the next fight of the same rules where that cannot
    // change what the engine does (fight_exact's reuse_decisions). A fight known to be short
    // (on_caller) runs on the calling thread with the GIL released, as a helper thread would cost
    // more than the fight; a longer one on a helper thread, interruptible by Ctrl-C.
    m.def(
        "fight_exact_shaped",
        [](const FightSpec& spec, const DiceArray& dice_a, const DiceArray& dice_b, int rounds, double work_limit,
           uint64_t max_states, uint64_t max_bytes, bool on_caller, const std::optional<DiceArray>& injured_a,
           const std::optional<DiceArray>& injured_b) -> FightShapedResult {
            const FightDice dice = fight_dice(dice_a, dice_b, injured_a, injured_b);
            ExactWork work;
            const SolverBudget budget{max_states, max_bytes};
            auto run = [&] { return fight_exact(spec, dice, rounds, &work, work_limit, 0, budget, true); };
            const std::vector<double> joint = on_caller ? on_calling_thread(run) : without_gil(run);
            py::object pmf = py::none();
            if (!joint.empty()) pmf = to_numpy(joint, {spec.wounds_rows(), spec.wounds_columns()});
            return FightShapedResult(
                py::make_tuple(std::move(pmf), work.solver_refused, static_cast<double>(work.solver_states)));
        },
        py::arg("spec"), py::arg("dice_a"), py::arg("dice_b"), py::arg("rounds"), py::arg("work_limit"),
        py::arg("max_states"), py::arg("max_bytes"), py::arg("on_caller"), py::arg("injured_a") = py::none(),
        py::arg("injured_b") = py::none());

    py::class_<FightMonteCarlo>(m, "FightMonteCarlo")
        .def(py::init([](const FightSpec& spec, const AttackProfile& dice_a, const AttackProfile& dice_b, int rounds,
                         const std::optional<AttackProfile>& injured_a, const std::optional<AttackProfile>& injured_b) {
                 // an injured profile not given is the fighter's own (no injury to model)
                 return std::make_unique<FightMonteCarlo>(spec, dice_a, dice_b, rounds, injured_a.value_or(dice_a),
                                                          injured_b.value_or(dice_b));
             }),
             py::arg("spec"), py::arg("dice_a"), py::arg("dice_b"), py::arg("rounds"), py::arg("injured_a") = py::none(),
             py::arg("injured_b") = py::none())
        .def_property_readonly("bins", &FightMonteCarlo::bins)
        .def(
            "prepare",
            [](FightMonteCarlo& self, uint64_t max_states, uint64_t max_bytes) {
                // {"states", "bytes", "refused"}: refused 1 / 2 when the states / bytes bound was passed.
                const SolverBudget budget{max_states, max_bytes};
                const SolverStats stats = without_gil([&] { return self.prepare(budget); });
                py::typing::Dict<std::string, double> out;
                out["states"] = static_cast<double>(stats.states);
                out["bytes"] = static_cast<double>(stats.bytes);
                out["refused"] = stats.refused;
                return out;
            },
            py::arg("max_states") = 0, py::arg("max_bytes") = 0,
            "Solve an optimal fighter's game once, within the budget (0: unbounded), before sampling")
        .def(
            "counts",
            [](FightMonteCarlo& self, uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
               int threads) {
                return to_numpy(without_gil([&] { return self.counts(seed, total, chunk_begin, chunk_end, threads); }));
            },
            py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"));

    // kt.advise: (mover or None, [(move, dead_a, dead_b, lost_a, lost_b, best)], {strategy: move}).
    m.def(
        "advise",
        [](const FightSpec& spec, int crits_a, int norms_a, int crits_b, int norms_b) -> AdviseResult {
            const Advice advice = without_gil([&] { return kt::advise(spec, crits_a, norms_a, crits_b, norms_b); });
            py::typing::List<MoveRow> moves;
            for (const MoveAdvice& mv : advice.moves) {
                moves.append(py::make_tuple(action_name(mv.action), mv.outlook.dead[0], mv.outlook.dead[1],
                                            mv.outlook.lost[0], mv.outlook.lost[1], mv.best));
            }
            py::typing::Dict<std::string, std::string> heuristic;
            if (advice.has_heuristic) {
                for (int s = 0; s < 4; ++s)
                    heuristic[strategy_name(static_cast<Strategy>(s))] = action_name(advice.heuristic[s]);
            }
            py::object mover = advice.mover < 0 ? py::object(py::none()) : py::str(advice.mover == 0 ? "a" : "b");
            return AdviseResult(py::make_tuple(mover, moves, heuristic));
        },
        py::arg("spec"), py::arg("crits_a"), py::arg("norms_a"), py::arg("crits_b"), py::arg("norms_b"));

    m.def(
        "resolve_fight",
        [](const FightSpec& spec, int crits_a, int norms_a, int crits_b, int norms_b, int wounds_a, int wounds_b,
           uint64_t seed) -> ResolveFightResult {
            const LoggedRound round = resolve_logged(spec, crits_a, norms_a, crits_b, norms_b, wounds_a, wounds_b, seed);
            py::typing::List<ActionRow> actions;
            for (const LogEntry& e : round.actions) {
                actions.append(py::make_tuple(e.side == 0 ? "a" : "b", log_kind_name(e.kind), e.value));
            }
            return ResolveFightResult(py::make_tuple(round.wounds[0], round.wounds[1], actions,
                                                     py::make_tuple(round.relic_uses[0], round.relic_uses[1])));
        },
        py::arg("spec"), py::arg("crits_a"), py::arg("norms_a"), py::arg("crits_b"), py::arg("norms_b"),
        py::arg("wounds_a"), py::arg("wounds_b"), py::arg("seed"));
}

}  // namespace mh::bindings
