"""A plain transcription of the reference calculator's behaviour at each switch of docs/rules/killteam.md §8.5,
next to this project's reading of the same step, for the tests only.

Every function takes the switches it reads as a mapping (``kt.Variants`` field names); the reference side of
each switch is written as §8.6 of the rules page describes the reference calculator (its state flags
hasStruck / hasCritStruck / normScratchUsed / hasDuelistParried, its nominal next-strike damage, its greedy
block allocation, its pooled Feel No Pain), the default side as §2 / §3 read. Nothing here calls the engine.

Fights: the deterministic resolution of one round from fixed dice (`resolve`: no Feel No Pain or relics),
and the same round with every Feel No Pain and relic die enumerated (`round_outcomes`), where the
`lookahead` switch says whether rule 5's two lines roll those dice too (the reference) or not; the other
lookaheads never roll them. Shooting: one attack's survivors, damage and Feel No Pain rolls.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

DEFAULTS = {
    "shock": "discard_crit", "lethal_test": "real_damage", "lookahead": "fixed", "duelist": "never_parry_nothing",
    "durable": "after_damage_modifiers", "blocks": "optimal", "just_a_scratch": "after_blocks",
    "fnp": "per_damage_instance", "upgrades": "accurate_first", "ones": "unmodified_ones",
}


def switches(variants: Mapping[str, str] | None) -> dict[str, str]:
    return {**DEFAULTS, **(variants or {})}


# ----------------------------------------------------------------------------------------------
# Fights


@dataclass
class FighterState:
    crits: int
    norms: int
    wounds: int
    dn: int = 3
    dc: int = 4
    strategy: str = "strike"
    abilities: frozenset[str] = field(default_factory=frozenset)
    # the reference's per-round flags
    has_struck: bool = False
    has_crit_struck: bool = False
    norm_scratch_used: bool = False
    has_duelist_parried: bool = False
    # chance effects (round_outcomes only): Feel No Pain x+ (0: none), Saintly Relics dice (0: none)
    feel_no_pain: int = 0
    relics: int = 0
    relic_used_round: bool = False  # the round's one ignore is spent
    relic_uses: int = 0  # ignores spent this fight (at most RELIC_IGNORES_PER_FIGHT)

    def has(self, name: str) -> bool:
        return name in self.abilities

    def successes(self) -> int:
        return self.crits + self.norms

    def cancels_per_parry(self) -> int:
        return 2 if self.has("storm_shield") else 1


# ability names: brutal, shock, storm_shield, dueller, duelist, hammerhand, jas, jas_normals,
# half_damage, durable, murderous_entrance

RELIC_IGNORES_PER_FIGHT = 2


def relic_chance(dice: int) -> float:
    """P(any 6) on the relic dice, counted over every face."""
    faces = list(itertools.product(range(1, 7), repeat=dice))
    return sum(6 in f for f in faces) / len(faces)


def fnp_chance(x: int) -> float:
    return sum(face >= x for face in range(1, 7)) / 6


class Fight:
    """One round between two FighterStates under the given switches."""

    def __init__(self, variants: Mapping[str, str] | None = None) -> None:
        self.v = switches(variants)

    # --- strike damage (§3.3; the reference's applyDmgWithFirstStrikeHandling) -------------------
    def strike(self, me: FighterState, enemy: FighterState, crit: bool, bonus: bool = False) -> None:
        enemy.wounds = max(0, enemy.wounds - self.strike_damage(me, enemy, crit, bonus))

    def strike_damage(self, me: FighterState, enemy: FighterState, crit: bool, bonus: bool = False) -> int:
        """Spends the die and sets the flags; returns the damage before relics and Feel No Pain."""
        durable_here = crit and not bonus and not me.has_crit_struck and enemy.has("durable")
        d = me.dc if crit else me.dn
        if durable_here and self.v["durable"] == "before_damage_modifiers" and me.dc > 3:
            d -= 1  # the reference: off the base dc, before Hammerhand and Half Damage
        if not me.has_struck:
            if enemy.has("jas"):
                d = 0
            else:
                if me.has("hammerhand"):
                    d += 1
                if enemy.has("half_damage"):
                    d = max(2, -(-d // 2))
            me.has_struck = True
        if durable_here and self.v["durable"] == "after_damage_modifiers" and d > 3:
            d -= 1  # this project: off the damage the strike would deal
        if not crit and d > 0 and enemy.has("jas_normals") and not enemy.norm_scratch_used:
            d = 0
            enemy.norm_scratch_used = True
        if crit:
            me.crits -= 1
        else:
            me.norms -= 1
        return d

    def crit_strike_action(self, me: FighterState, enemy: FighterState) -> None:
        first = not me.has_crit_struck
        self.strike(me, enemy, True)
        if first and me.has("shock"):
            if self.v["shock"] == "norms_only":
                enemy.norms = max(0, enemy.norms - 1)  # the reference: never a crit
            elif enemy.norms > 0:
                enemy.norms -= 1
            elif enemy.crits > 0:
                enemy.crits -= 1
        if first and me.has("murderous_entrance") and me.successes() > 0 and enemy.wounds > 0:
            self.strike(me, enemy, me.crits > 0, bonus=True)
        me.has_crit_struck = True

    def crit_parry(self, me: FighterState, enemy: FighterState) -> None:
        me.crits -= 1
        if me.has("dueller"):
            cancelled = 0
            if enemy.crits > 0:
                enemy.crits -= 1
                cancelled = 1
            enemy.norms = max(0, enemy.norms - (2 - cancelled))
        else:
            for _ in range(me.cancels_per_parry()):
                if enemy.crits > 0:
                    enemy.crits -= 1
                elif enemy.norms > 0:
                    enemy.norms -= 1

    def norm_parry(self, me: FighterState, enemy: FighterState) -> None:
        me.norms -= 1
        enemy.norms = max(0, enemy.norms - me.cancels_per_parry())

    def do(self, choice: str, me: FighterState, enemy: FighterState) -> None:
        {"crit_strike": self.crit_strike_action,
         "norm_strike": lambda m, e: self.strike(m, e, False),
         "crit_parry": self.crit_parry,
         "norm_parry": self.norm_parry}[choice](me, enemy)

    # --- decisions (§3.4; the reference's calcDieChoice) -------------------------------------------
    @staticmethod
    def next_strike(me: FighterState) -> str:
        return "crit_strike" if me.crits > 0 else "norm_strike"

    @staticmethod
    def wise_parry(me: FighterState, enemy: FighterState) -> str:
        if enemy.crits > 0 and me.crits > 0:
            return "crit_parry"
        if me.norms > 0 and enemy.norms > 0 and not enemy.has("brutal"):
            return "norm_parry"
        if me.crits > 0:
            return "crit_parry"
        return "norm_strike"

    @staticmethod
    def next_dmg(me: FighterState, enemy: FighterState) -> int:
        """The reference's nominal next strike (FighterState.nextDmg)."""
        if me.crits > 0:
            d = me.dc - (1 if enemy.has("durable") and not me.has_crit_struck and me.dc > 3 else 0)
            if me.has("murderous_entrance") and not me.has_crit_struck:
                d += me.dc
        else:
            d = me.dn
        if me.has("hammerhand") and not me.has_struck:
            d += 1
        return d

    def lethal(self, me: FighterState, enemy: FighterState) -> bool:
        if self.v["lethal_test"] == "nominal":
            return self.next_dmg(me, enemy) >= enemy.wounds
        m, e = copy.deepcopy(me), copy.deepcopy(enemy)
        self.do(self.next_strike(m), m, e)
        return e.wounds == 0

    def play_out(self, first: FighterState, second: FighterState) -> None:
        cur, nxt = first, second
        while cur.successes() + nxt.successes() > 0 and cur.wounds > 0 and nxt.wounds > 0:
            if cur.successes() > 0:
                self.do(self.choose(cur, nxt), cur, nxt)
            cur, nxt = nxt, cur

    def preferred_strike(self, me: FighterState, enemy: FighterState) -> str:
        if not (me.crits > 0 and me.norms > 0 and enemy.crits == 0):
            return self.next_strike(me)
        ends = {}
        for choice in ("crit_strike", "norm_strike"):
            m, e = copy.deepcopy(me), copy.deepcopy(enemy)
            self.do(choice, m, e)
            self.play_out(e, m)
            ends[choice] = (m.wounds, e.wounds)
        if me.strategy == "min_damage":
            better = ends["norm_strike"][0] > ends["crit_strike"][0]
        else:
            better = ends["norm_strike"][1] < ends["crit_strike"][1]
        return "norm_strike" if better else "crit_strike"

    def choose(self, me: FighterState, enemy: FighterState) -> str:
        """The decision with every lookahead unrolled (no Feel No Pain, no relics)."""
        decided = self.rules_one_to_four(me, enemy)
        if decided is not None:
            return decided
        if me.strategy == "strike":
            return self.preferred_strike(me, enemy)
        if me.strategy == "parry":
            return self.wise_parry(me, enemy)
        strike, careful = self.preferred_strike(me, enemy), self.wise_parry(me, enemy)
        ends = {}
        for name, choice in (("strike", strike), ("parry", careful)):
            m, e = copy.deepcopy(me), copy.deepcopy(enemy)
            e.strategy = "strike"
            self.do(choice, m, e)
            self.play_out(e, m)
            ends[name] = (m.wounds, e.wounds)
        if me.strategy == "max_damage":
            return strike if ends["strike"][1] <= ends["parry"][1] else careful
        return strike if ends["strike"][0] >= ends["parry"][0] else careful

    def rules_one_to_four(self, me: FighterState, enemy: FighterState) -> str | None:
        """Rules 1-4 of the decision (unrolled), or None when rule 5 decides."""
        def ordered() -> str:
            return self.next_strike(me) if me.strategy == "parry" else self.preferred_strike(me, enemy)

        if enemy.successes() == 0:
            return ordered()
        if self.lethal(me, enemy) or (enemy.has("brutal") and me.crits == 0):
            return self.next_strike(me)
        if me.has("shock") and not me.has_crit_struck and me.crits > 0 and enemy.crits == 0:
            return ordered()
        parry = None
        if not (enemy.has("brutal") and me.crits == 0):
            if me.has("dueller") and me.crits > 0 and enemy.crits <= 1 and enemy.successes() <= 2:
                parry = "crit_parry"
            elif enemy.successes() <= me.cancels_per_parry():
                if enemy.crits > 0:
                    parry = "crit_parry" if me.crits > 0 else None
                elif me.norms > 0 and not enemy.has("brutal"):
                    parry = "norm_parry"
                else:
                    parry = "crit_parry"
        if parry is not None:
            m, e = copy.deepcopy(me), copy.deepcopy(enemy)
            self.do(parry, m, e)
            while m.successes() > 0 and e.wounds > 0:
                self.do(self.next_strike(m), m, e)
            if e.wounds == 0:
                return parry
        return None

    # --- Duelist (the reference's handleDuelist) ----------------------------------------------------
    def handle_duelist(self, me: FighterState, enemy: FighterState) -> None:
        if me.has_duelist_parried or not me.has("duelist") or me.successes() == 0 or enemy.successes() == 0:
            return
        me.has_duelist_parried = True
        if self.v["duelist"] == "never_parry_nothing":
            choice = self.wise_parry(me, enemy)
            if choice != "norm_strike":
                self.do(choice, me, enemy)
            return
        if enemy.has("brutal"):
            if me.crits > 0:
                self.crit_parry(me, enemy)
        elif me.crits > 0 and enemy.crits > 0:
            self.crit_parry(me, enemy)
        elif me.norms == 0:
            self.crit_parry(me, enemy)
        else:
            self.norm_parry(me, enemy)  # may cancel nothing: the enemy holds only crits

    def resolve(self, a: FighterState, b: FighterState, first: str = "a") -> tuple[int, int]:
        a, b = copy.deepcopy(a), copy.deepcopy(b)
        guys = {"a": a, "b": b}
        other = {"a": "b", "b": "a"}
        self.handle_duelist(guys[first], guys[other[first]])
        self.handle_duelist(guys[other[first]], guys[first])
        side = first
        while a.successes() + b.successes() > 0 and a.wounds > 0 and b.wounds > 0:
            me, enemy = guys[side], guys[other[side]]
            if me.successes() > 0:
                self.do(self.choose(me, enemy), me, enemy)
            side = other[side]
        return a.wounds, b.wounds

    # --- the real line of play with Feel No Pain and relics, and the rolled lookahead ---------------
    # Every die is enumerated as a chance branch with its probability (exact). A strike's relic try
    # (FighterState.applyDmg): only on damage > 0, the round's ignore and the fight's two unspent, and
    # only when the strike is at least as large as every other success the striker holds (base damage;
    # a norm the defender's unspent Just a Scratch (normals) will cancel does not count); then one Feel
    # No Pain die on what is left, a roll of x+ taking 1 off.

    @staticmethod
    def largest_pending(me: FighterState, enemy: FighterState) -> int:
        norms = me.norms - (1 if me.norms > 0 and enemy.has("jas_normals") and not enemy.norm_scratch_used else 0)
        return max(me.dc if me.crits > 0 else 0, me.dn if norms > 0 else 0)

    def strike_outcomes(self, me: FighterState, enemy: FighterState, crit: bool, bonus: bool = False
                        ) -> list[tuple[float, FighterState, FighterState]]:
        me, enemy = copy.deepcopy(me), copy.deepcopy(enemy)
        d = self.strike_damage(me, enemy, crit, bonus)
        cases: list[tuple[float, int, bool]] = [(1.0, d, False)]
        if (d > 0 and enemy.relics and not enemy.relic_used_round and enemy.relic_uses < RELIC_IGNORES_PER_FIGHT
                and d >= self.largest_pending(me, enemy)):
            r = relic_chance(enemy.relics)
            cases = [(r, 0, True), (1 - r, d, False)]
        out = []
        for p, dealt, ignored in cases:
            rolls = [(p, dealt)]
            if dealt > 0 and enemy.feel_no_pain:
                f = fnp_chance(enemy.feel_no_pain)
                rolls = [(p * f, dealt - 1), (p * (1 - f), dealt)]
            for q, final in rolls:
                m, e = copy.deepcopy(me), copy.deepcopy(enemy)
                if ignored:
                    e.relic_used_round = True
                    e.relic_uses += 1
                e.wounds = max(0, e.wounds - final)
                out.append((q, m, e))
        return out

    def do_outcomes(self, choice: str, me: FighterState, enemy: FighterState
                    ) -> list[tuple[float, FighterState, FighterState]]:
        """Every outcome of one real action (a parry has one)."""
        if choice in ("crit_parry", "norm_parry"):
            m, e = copy.deepcopy(me), copy.deepcopy(enemy)
            self.do(choice, m, e)
            return [(1.0, m, e)]
        if choice == "norm_strike":
            return self.strike_outcomes(me, enemy, False)
        first = not me.has_crit_struck
        out = []
        for p, m, e in self.strike_outcomes(me, enemy, True):
            if first and m.has("shock"):
                if self.v["shock"] == "norms_only":
                    e.norms = max(0, e.norms - 1)
                elif e.norms > 0:
                    e.norms -= 1
                elif e.crits > 0:
                    e.crits -= 1
            if first and m.has("murderous_entrance") and m.successes() > 0 and e.wounds > 0:
                for q, m2, e2 in self.strike_outcomes(m, e, m.crits > 0, bonus=True):
                    m2.has_crit_struck = True
                    out.append((p * q, m2, e2))
            else:
                m.has_crit_struck = True
                out.append((p, m, e))
        return out

    def choose_outcomes(self, me: FighterState, enemy: FighterState) -> list[tuple[float, str]]:
        """The decision as (probability, choice): certain, unless rule 5's lines roll (lookahead=rolled).
        Rolled, each line is the die, then the rest of the round with the enemy's copy on Strike, every
        Feel No Pain and relic die (and every nested rolled decision) enumerated; the two lines are
        independent, and (a) is played when it leaves the enemy no more wounds (Max Dmg) / the mover no
        fewer (Min Dmg) than (b)."""
        if self.v["lookahead"] != "rolled" or me.strategy not in ("max_damage", "min_damage"):
            return [(1.0, self.choose(me, enemy))]
        decided = self.rules_one_to_four(me, enemy)
        if decided is not None:
            return [(1.0, decided)]
        strike, careful = self.preferred_strike(me, enemy), self.wise_parry(me, enemy)
        lines = []
        for choice in (strike, careful):
            m, e = copy.deepcopy(me), copy.deepcopy(enemy)
            e.strategy = "strike"
            line: dict[tuple[int, int], float] = defaultdict(float)
            for p, m2, e2 in self.do_outcomes(choice, m, e):
                for (ew, mw, _, _), q in self.play_outcomes(e2, m2).items():
                    line[(mw, ew)] += p * q
            lines.append(line)
        if me.strategy == "max_damage":
            wins = sum(pa * pb for (_, ea), pa in lines[0].items() for (_, eb), pb in lines[1].items() if ea <= eb)
        else:
            wins = sum(pa * pb for (ma, _), pa in lines[0].items() for (mb, _), pb in lines[1].items() if ma >= mb)
        return [(p, c) for p, c in ((wins, strike), (1.0 - wins, careful)) if p > 1e-15]

    def play_outcomes(self, first: FighterState, second: FighterState) -> dict[tuple[int, int, int, int], float]:
        """The rest of the round, `first` to move: P(first's wounds, second's wounds, first's relic uses,
        second's relic uses) at its end."""
        out: dict[tuple[int, int, int, int], float] = defaultdict(float)

        def walk(cur: FighterState, nxt: FighterState, cur_is_first: bool, p: float) -> None:
            while cur.successes() + nxt.successes() > 0 and cur.wounds > 0 and nxt.wounds > 0:
                if cur.successes() > 0:
                    for pc, choice in self.choose_outcomes(cur, nxt):
                        for pd, m, e in self.do_outcomes(choice, cur, nxt):
                            walk(e, m, not cur_is_first, p * pc * pd)
                    return
                cur, nxt, cur_is_first = nxt, cur, not cur_is_first
            f, s = (cur, nxt) if cur_is_first else (nxt, cur)
            out[(f.wounds, s.wounds, f.relic_uses, s.relic_uses)] += p

        walk(first, second, True, 1.0)
        return out

    def round_outcomes(self, a: FighterState, b: FighterState, first: str = "a"
                       ) -> dict[tuple[int, int, int, int], float]:
        """P(wounds A, wounds B, relic uses A, relic uses B) at the end of one round from these dice."""
        a, b = copy.deepcopy(a), copy.deepcopy(b)
        guys = {"a": a, "b": b}
        other = {"a": "b", "b": "a"}
        self.handle_duelist(guys[first], guys[other[first]])
        self.handle_duelist(guys[other[first]], guys[first])
        ends = self.play_outcomes(guys[first], guys[other[first]])
        if first == "a":
            return dict(ends)
        return {(wa, wb, ua, ub): p for (wb, wa, ub, ua), p in ends.items()}


# ----------------------------------------------------------------------------------------------
# Shooting


def scratch(c: int, n: int, jas: bool, jas_normals: bool) -> tuple[int, int]:
    if jas:
        if c > 0:
            c -= 1
        elif n > 0:
            n -= 1
    if jas_normals and n > 0:
        n -= 1
    return c, n


def durable_damage(c: int, n: int, dn: int, dc: int, durable: bool) -> int:
    return c * dc + n * dn - (1 if durable and c > 0 and dc > 3 else 0)


def greedy_blocks(c: int, n: int, s: int, t: int, dn: int, dc: int) -> tuple[int, int]:
    """The reference's greedy (§8.6 `blocks`), step by step; returns the unblocked (crits, norms)."""
    if dc >= dn:
        k = min(s, c)
        c, s = c - k, s - k
        k = min(s, n)
        n, s = n - k, s - k
        if dc > 2 * dn:
            k = min(t // 2, c)
            c, t = c - k, t - 2 * k
            k = min(t, n)
            n, t = n - k, t - k
        else:
            if t > n and t >= 2 and c > 0:
                c, t = c - 1, t - 2
            k = min(t, n)
            n, t = n - k, t - k
            k = min(t // 2, c)
            c, t = c - k, t - 2 * k
    else:
        k = min(t, n)
        n, t = n - k, t - k
        k = min(s, n)
        n, s = n - k, s - k
        k = min(s, c)
        c, s = c - k, s - k
        k = min(t // 2, c)
        c, t = c - k, t - 2 * k
    return c, n


def every_allocation(c: int, n: int, s: int, t: int) -> Iterator[tuple[int, int]]:
    """Every way to put each save on one attack die or nowhere: yields (blocked crits, blocked norms)."""
    hits = ["C"] * c + ["N"] * n
    saves = ["C"] * s + ["N"] * t
    for targets in itertools.product(range(-1, len(hits)), repeat=len(saves)):
        bc = bn = 0
        for i, kind in enumerate(hits):
            on = [saves[j] for j, x in enumerate(targets) if x == i]
            if kind == "C" and (on.count("C") >= 1 or on.count("N") >= 2):
                bc += 1
            if kind == "N" and on:
                bn += 1
        yield bc, bn


def survivors(c: int, n: int, s: int, t: int, cfg: Mapping[str, Any], variants: Mapping[str, str] | None = None
              ) -> tuple[int, int]:
    """Attack dice left after Just a Scratch and the blocks, in the order and allocation the switches say."""
    v = switches(variants)
    dn, dc, jas, jas_n, durable = cfg["dn"], cfg["dc"], cfg["jas"], cfg["jas_normals"], cfg["durable"]
    before = v["just_a_scratch"] == "before_blocks"
    if before:
        c, n = scratch(c, n, jas, jas_n)
    if v["blocks"] == "greedy":
        left = greedy_blocks(c, n, s, t, dn, dc)
    else:
        def value(blocked: tuple[int, int]) -> tuple[int, int, int]:
            bc, bn = blocked
            rest = (c - bc, n - bn) if before else scratch(c - bc, n - bn, jas, jas_n)
            return (durable_damage(*rest, dn, dc, durable), -(bc + bn), -(bc if dc >= dn else bn))

        bc, bn = min(set(every_allocation(c, n, s, t)), key=value)
        left = (c - bc, n - bn)
    return left if before else scratch(*left, jas, jas_n)


def relic_order(uc: int, un: int, dn: int, dc: int, durable: bool) -> list[str]:
    """The reference's calcRelicsOutcomes groups (crits valued dc - 1 when a lone crit took Durable's 1),
    sorted by value, crits first on a tie; dice dealing 0 are never tried."""
    groups = []
    if uc > 0 and dc > 0:
        groups.append(("C", dc - 1 if uc == 1 and durable and dc > 3 else dc, uc))
    if un > 0 and dn > 0:
        groups.append(("N", dn, un))
    groups.sort(key=lambda g: -g[1])  # stable: crits stay first on equal value
    return [kind for kind, _, count in groups for _ in range(count)]


def attack_outcome(retained_crits: int, uc: int, un: int, ignored: str | None, cfg: Mapping[str, Any],
                   variants: Mapping[str, str] | None = None) -> tuple[int, int, bool]:
    """(damage before Feel No Pain, Feel No Pain rolls, pooled?) of one attack after the relic outcome."""
    v = switches(variants)
    dn, dc, dev = cfg["dn"], cfg["dc"], cfg["devastating"]
    lc, ln = uc - (ignored == "C"), un - (ignored == "N")
    damage = retained_crits * dev + durable_damage(lc, ln, dn, dc, cfg["durable"])
    if v["fnp"] == "per_hit":
        # one roll per surviving die (0-damage ones too); with Devastating every retained crit keeps one
        rolls = lc + ln + (retained_crits - lc if dev > 0 else 0)
        return damage, rolls, True
    instances = (retained_crits if dev > 0 else 0) + (lc if dc > 0 else 0) + (ln if dn > 0 else 0)
    return damage, instances, False
