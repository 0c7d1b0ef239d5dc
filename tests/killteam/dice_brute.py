"""A plain brute force of the attack and defence dice of docs/rules/killteam.md §8.1 / §8.2, in both readings.

Every face of every rolled die and every face of every rerolled die is enumerated; the dice are kept as lists
of faces, and the post-roll pipeline is re-stated step by step. The two readings of §8.5 that touch the dice
are written as their rules say, independently of each other and of the engine:

- ``upgrades="accurate_first"``: each norm carries a tag, rolled ("R") or Accurate ("A"); an upgrade takes an
  "A" first; Rending needs an "R". ``"rolled_first"`` (the reference): a norm count and the fixed number A of
  Accurate norms; an upgrade lowers the count; Rending needs more norms than A.
- ``ones="unmodified_ones"``: Purity Seal / Indomitus need two fails showing a 1 (after rerolls); where a rule
  leaves a choice (which fail to reroll, which fail Punishing takes), fails other than 1s go first.
  ``"any_two_fails"`` (the reference): any two fails.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter, defaultdict
from typing import Any

FACES = (1, 2, 3, 4, 5, 6)


class TaggedNorms:
    """Norms for the default reading: each one rolled ("R") or Accurate ("A")."""

    def __init__(self, rolled: int, accurate: int) -> None:
        self.tags = ["R"] * rolled + ["A"] * accurate

    def count(self) -> int:
        return len(self.tags)

    def add_rolled(self) -> None:
        self.tags.append("R")

    def upgrade(self) -> None:
        self.tags.remove("A" if "A" in self.tags else "R")

    def rending_can_take(self) -> bool:
        return "R" in self.tags

    def take_for_rending(self) -> None:
        self.tags.remove("R")


class CountedNorms:
    """Norms as the reference keeps them: a count, and the Accurate norms retained, fixed for the roll."""

    def __init__(self, rolled: int, accurate: int) -> None:
        self.n = rolled + accurate
        self.accurate = accurate

    def count(self) -> int:
        return self.n

    def add_rolled(self) -> None:
        self.n += 1

    def upgrade(self) -> None:
        self.n -= 1

    def rending_can_take(self) -> bool:
        return self.n - self.accurate > 0

    def take_for_rending(self) -> None:
        self.n -= 1


def category(face: int, hit: int, crit: int) -> str:
    if face >= crit:
        return "C"
    return "N" if face >= hit else "F"


def dice_to_reroll(faces: tuple[int, ...], hit: int, crit: int, reroll: str) -> list[int]:
    """Indices of the dice the rule rerolls; where it leaves a choice, fails other than 1s first."""
    cats = [category(x, hit, crit) for x in faces]
    fails = sorted((i for i, c in enumerate(cats) if c == "F"), key=lambda i: faces[i] == 1)
    ones = [i for i in fails if faces[i] == 1]
    if reroll == "none":
        return []
    if reroll == "balanced":
        return fails[:1]
    if reroll == "double_balanced":
        return fails[:2]
    if reroll in ("ceaseless", "ceaseless_balanced"):
        chosen: list[int] = []
        if fails:
            counts = Counter(faces[i] for i in fails)
            top = max(counts.values())
            # the most common fail face; on a tie one other than 1
            face = max(f for f, k in counts.items() if k == top)
            chosen = [i for i in fails if faces[i] == face]
        if reroll == "ceaseless_balanced":
            chosen += [i for i in fails if i not in chosen][:1]
        return chosen
    if reroll == "relentless":
        return fails
    if reroll == "relentless_crit_fishing":
        return [i for i, c in enumerate(cats) if c != "C"]
    if reroll == "reroll_ones":
        return ones
    if reroll == "reroll_ones_balanced":
        return ones + [i for i in fails if i not in ones][:1]
    raise AssertionError(reroll)


def pipeline(final: tuple[int, ...], hit: int, crit: int, auto: int, accurate: int, rules: dict[str, Any],
             obscured: bool, upgrades: str, ones: str) -> tuple[int, int]:
    """§8.1 steps 1-11 on the final faces of the rolled dice, plus `auto` crits and `accurate` norms."""
    c = sum(x >= crit for x in final) + auto
    rolled_norms = sum(hit <= x < crit for x in final)
    norms: Any = TaggedNorms(rolled_norms, accurate) if upgrades == "accurate_first" else CountedNorms(
        rolled_norms, accurate)
    fails = sorted((x for x in final if x < hit), reverse=True)  # fails other than 1s first
    severe = False
    # 2. Punishing
    if rules.get("punishing") and not obscured and c >= 1 and fails:
        fails.pop(0)
        norms.add_rolled()
    # 3. Purity Seal
    if rules.get("purity_seal"):
        if ones == "unmodified_ones" and fails.count(1) >= 2:
            fails.remove(1)
            fails.remove(1)
            norms.add_rolled()
        elif ones == "any_two_fails" and len(fails) >= 2:
            del fails[:2]
            norms.add_rolled()
    # 4. Close Assault
    if rules.get("close_assault") and c + norms.count() >= 2 and fails:
        fails.pop(0)
        norms.add_rolled()
    # 5. Waaagh
    if rules.get("waaagh") and norms.count() >= 2:
        norms.upgrade()
        c += 1
    # 6. Fails to Norms
    for _ in range(min(rules.get("fails_to_norms", 0), len(fails))):
        fails.pop(0)
        norms.add_rolled()
    # 7. Severe
    if rules.get("severe") and c == 0 and norms.count() >= 1:
        norms.upgrade()
        c += 1
        severe = True
    # 8. Norms to Crits
    for _ in range(min(rules.get("norms_to_crits", 0), norms.count())):
        norms.upgrade()
        c += 1

    def tail(c: int, norms: Any) -> tuple[int, int]:
        # 10. Rending, 11. Obscured
        if rules.get("rending") and c >= 1 and not severe and norms.rending_can_take():
            norms.take_for_rending()
            c += 1
        n = norms.count()
        if obscured:
            return 0, max(0, n + c - 1)
        return c, n

    # 9. Mystic Scry: the first of (norm -> crit, fail -> norm, nothing) with the strictly best score
    if rules.get("mystic_scry"):
        crit_value, norm_value = rules["scry_values"]
        best: tuple[int, int] | None = None
        best_score = -1
        for option in ("upgrade", "fix", "nothing"):
            if option == "upgrade" and norms.count() == 0 or option == "fix" and not fails:
                continue
            trial = copy.deepcopy(norms)
            cc = c
            if option == "upgrade":
                trial.upgrade()
                cc += 1
            elif option == "fix":
                trial.add_rolled()
            out = tail(cc, trial)
            score = out[0] * crit_value + out[1] * norm_value
            if score > best_score:
                best, best_score = out, score
        assert best is not None
        return best
    return tail(c, norms)


def brute_dice(dice: int, hit: int, crit: int, auto: int, accurate: int, reroll: str, rules: dict[str, Any],
               obscured: bool = False, upgrades: str = "accurate_first",
               ones: str = "unmodified_ones") -> dict[tuple[int, int], float]:
    """P(crits, norms) retained, over every face of every rolled die and every face of every reroll."""
    auto = min(auto, dice)
    accurate = min(accurate, dice - auto)
    rolled = dice - auto - accurate
    out: dict[tuple[int, int], float] = defaultdict(float)
    finished: dict[tuple[int, ...], tuple[int, int]] = {}
    # What follows a first roll depends only on its faces, not on their order: worked out once per multiset.
    after_first: dict[tuple[int, ...], dict[tuple[int, int], float]] = {}
    for faces in itertools.product(FACES, repeat=rolled):
        key = tuple(sorted(faces))
        if key not in after_first:
            again = dice_to_reroll(key, hit, crit, reroll)
            kept = tuple(x for i, x in enumerate(key) if i not in again)
            branch: dict[tuple[int, int], float] = defaultdict(float)
            for new_faces in itertools.product(FACES, repeat=len(again)):
                final = tuple(sorted(kept + new_faces))
                if final not in finished:
                    finished[final] = pipeline(final, hit, crit, auto, accurate, rules, obscured, upgrades, ones)
                branch[finished[final]] += 6.0 ** -len(again)
            after_first[key] = branch
        for result, p in after_first[key].items():
            out[result] += p * 6.0 ** -rolled
    return dict(out)
