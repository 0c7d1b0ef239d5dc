"""An imported team's ability texts read and applied (docs/data.md, "Abilities").

Three kinds of text are read: each operative's abilities (its Abilities profiles), the catalogue's
faction rules, and the team's own weapon rules (a WR token marked ``*``, with the text of the rule
of that name). Each clause is read by the pattern table (:mod:`mathhammer.killteam.patterns`) and
lands in one place:

- **applied**: an option always true in a shot or a fight is given to what the clause names — the
  operative (its abilities, a better save), its weapons of the kind the clause says (all of them
  when it says none), the weapons it names ("bolt pistols"), or the weapons whose rule the text is —
  and recorded with the text's name (:class:`~mathhammer.killteam.data.team.Applied`);
- **switch**: an option under a condition the engine cannot decide becomes a named switch of the
  team, off until turned on (:class:`~mathhammer.killteam.switches.Switch`);
- **set aside**: the rest, with the reason.

"A friendly PLAGUE MARINE operative" names the operatives whose categories are those keywords;
"a friendly operative" every operative of the team. Reading costs steps of the import's bound
(:class:`~mathhammer.killteam.data.walk.Steps`): a text one per hundred characters, a clause one
per character and per operative and weapon it is checked against, so that hostile files fail in
seconds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from mathhammer.errors import InputError, ProfileFileError
from mathhammer.killteam.data.report import AbilityEntry, Reading
from mathhammer.killteam.data.team import Applied, TeamOperative
from mathhammer.killteam.data.tokens import rule_name
from mathhammer.killteam.data.walk import RawAbility, Steps, marked_rule
from mathhammer.killteam.patterns import Clause, read_text
from mathhammer.killteam.switches import Switch, added, with_option

__all__ = ["Sources", "apply_abilities", "weapon_rules"]


@dataclass(frozen=True)
class Sources:
    """The texts a team's abilities come from: per operative (by name) its abilities and its
    categories, the faction rules, and the texts of rules by :func:`rule_name` (a ``*`` token's)."""

    abilities: dict[str, tuple[RawAbility, ...]]
    categories: dict[str, tuple[str, ...]]
    faction: tuple[RawAbility, ...] = ()
    texts: dict[str, str] = dataclasses.field(default_factory=dict)


#: The most words of a keyword ("exaction squad r-vr cyber-mastiff" has four) looked up in categories.
MAX_KEYWORD_WORDS = 12


class _Team:
    """The operatives being changed, and what the clauses made of them."""

    def __init__(self, operatives: Sequence[TeamOperative], sources: Sources, steps: Steps, file: str) -> None:
        self.operatives = list(operatives)
        self.sources = sources
        self.switches: list[Switch] = []
        self.steps = steps
        self.file = file
        self.size = len(self.operatives) + sum(len(op.weapons) for op in self.operatives)

    def charge(self, cost: int) -> None:
        """Spend steps of the import's bound; past it, an error naming the file."""
        self.steps.left -= cost
        if self.steps.left < 0:
            raise ProfileFileError(self.file, f"reading the ability texts of one import takes more than "
                                   f"{self.steps.total} steps in all (with the walks); import fewer teams at once")

    def add_switch(self, switch: Switch) -> Switch:
        """Keep a switch, named "<name> 2" when another has its name (names are keys of the library)."""
        taken = {s.name.lower() for s in self.switches}
        name, count = switch.name, 1
        while name.lower() in taken:
            count += 1
            name = f"{switch.name} {count}"
        switch = dataclasses.replace(switch, name=name)
        self.switches.append(switch)
        return switch

    # --- what a clause names ----------------------------------------------------------------------
    def keyword_operatives(self, keyword: str) -> list[int]:
        """The operatives "a friendly <keyword> operative" names: those with every category the
        keyword is made of ("exaction squad gunner": EXACTION SQUAD and Gunner); "x or friendly y"
        names both; "*" every operative."""
        if keyword == "*":
            return list(range(len(self.operatives)))
        if len(keyword.split()) > MAX_KEYWORD_WORDS:
            return []
        found: list[int] = []
        for part in keyword.split(" or "):
            part = part.strip().removeprefix("friendly ").strip()
            for i, op in enumerate(self.operatives):
                names = {c.lower() for c in self.sources.categories.get(op.name, ())}
                if i not in found and _made_of(part, names):
                    found.append(i)
        return found

    def holders(self, names: Sequence[str]) -> list[int]:
        """The operatives of these names, in the team's order."""
        wanted = set(names)
        return [i for i, op in enumerate(self.operatives) if op.name in wanted]


def _made_of(keyword: str, categories: set[str]) -> bool:
    """Whether ``keyword``'s words are a run of some of ``categories`` (each a name, lower case)."""
    words = keyword.split()
    reach = [True] + [False] * len(words)  # reach[k]: the first k words are a run of categories
    for end in range(1, len(words) + 1):
        reach[end] = any(reach[start] and " ".join(words[start:end]) in categories for start in range(end))
    return bool(words) and reach[-1]


def apply_abilities(operatives: Sequence[TeamOperative], sources: Sources,
                    weapon_rules: dict[str, list[tuple[str, str]]], steps: Steps | None = None,
                    file: str = "") -> tuple[list[TeamOperative], list[Switch], list[AbilityEntry]]:
    """Read every text of ``sources`` and of the team's weapon rules (``weapon_rules``: a rule's
    name as written -> the (operative, weapon) pairs whose WR names it) against ``operatives``:
    the operatives with what was applied, the switches, and an entry per text. ``steps``: the
    import's bound (a new one when None); ``file`` names the team's file in its error."""
    team = _Team(operatives, sources, steps if steps is not None else Steps(), file)
    entries: list[AbilityEntry] = []
    grouped: dict[tuple[str, str], list[str]] = {}
    for op in operatives:
        for ability in sources.abilities.get(op.name, ()):
            grouped.setdefault((ability.name, ability.text), []).append(op.name)
    for (name, text), names in grouped.items():
        entries.append(_read(team, name, "operative", text, team.holders(names)))
    for rule in sources.faction:
        entries.append(_read(team, rule.name, "faction rule", rule.text, list(range(len(operatives)))))
    for written, pairs in weapon_rules.items():
        found = sources.texts.get(rule_name(written))
        if found is None:
            reading = Reading("set aside", reason=f"no rule or ability named {rule_name(written)!r} among the files")
            entries.append(AbilityEntry(written, "weapon rule", tuple(f"{o}/{w}" for o, w in pairs), "", (reading,)))
            continue
        entries.append(_read(team, written, "weapon rule", found, team.holders([o for o, _ in pairs]), pairs))
    return team.operatives, team.switches, entries


def _read(team: _Team, name: str, source: str, text: str, holders: list[int],
          weapons: Sequence[tuple[str, str]] = ()) -> AbilityEntry:
    readings = []
    switch_count = 0
    team.charge(1 + len(text) // 100)
    for clause in read_text(text):
        team.charge(len(clause.text) + team.size)  # reading it takes time in proportion to its length
        if not clause.recognised:
            readings.append(Reading("set aside", reason=clause.reason, clause=clause.text))
            continue
        targets = _targets(team, clause, source, holders, weapons)
        if isinstance(targets, str):
            readings.append(Reading("set aside", clause.what, clause.notation, reason=targets, clause=clause.text))
            continue
        keys = tuple(key for key, _, _ in targets)
        if clause.conditional:
            switch_count += 1
            base = name.strip().strip("*'").strip() if source == "weapon rule" else name
            switch = team.add_switch(Switch(base if switch_count == 1 else f"{base} ({switch_count})", keys,
                                            clause.what, clause.notation, clause.condition, name))
            readings.append(Reading("switch", clause.what, clause.notation, keys, clause.condition, switch.name,
                                    _left_out(clause), clause.text))
            continue
        refused = _apply(team, name, clause, targets)
        done = tuple(key for key in keys if key not in refused)
        if done:
            readings.append(Reading("applied", clause.what, clause.notation, done, reason=_left_out(clause),
                                    clause=clause.text))
        for key, why in refused.items():
            readings.append(Reading("set aside", clause.what, clause.notation, (key,), reason=why, clause=clause.text))
    holder_names = tuple(f"{o}/{w}" for o, w in weapons) if weapons else tuple(team.operatives[i].name for i in holders)
    return AbilityEntry(name, source, holder_names, text, tuple(readings))


def _left_out(clause: Clause) -> str:
    return f"left out: {clause.left_out}" if clause.left_out else ""


Target = tuple[str, int, int | None]  # (library entry, operative, weapon index or None for the operative)


def _targets(team: _Team, clause: Clause, source: str, holders: list[int],
             weapons: Sequence[tuple[str, str]]) -> list[Target] | str:
    """The library entries a recognised clause reaches, or why it reaches none."""
    ops = team.operatives
    if clause.keyword:
        chosen = team.keyword_operatives(clause.keyword)
        if not chosen:
            return f"names operatives by keywords no operative of the team has: {clause.keyword!r}"
    else:
        chosen = holders
    if clause.kind == "weapon":  # the weapons whose rule this is
        if source != "weapon rule":
            return "names 'this weapon', but the text is no weapon's rule"
        pairs = {(o.lower(), w.lower()) for o, w in weapons}
        found: list[Target] = [(f"{ops[i].name}/{gun.name}", i, j) for i in range(len(ops))
                               for j, gun in enumerate(ops[i].weapons) if (ops[i].name.lower(), gun.name.lower()) in pairs]
        if clause.on == "operative":  # what its operative has while fighting with it
            found = [t for t in found if ops[t[1]].weapons[t[2] or 0].kind == "melee"]
            if not found:
                return "an ability while using a ranged weapon: no engine option"
        return found or "no weapon of the team has this rule"
    if clause.on == "operative":
        return [(ops[i].name, i, None) for i in chosen]
    found = []
    for i in chosen:
        for j, gun in enumerate(ops[i].weapons):
            if clause.kind in ("ranged", "melee") and gun.kind != clause.kind:
                continue
            if clause.named and not any(word in gun.name.lower() for word in clause.named):
                continue
            found.append((f"{ops[i].name}/{gun.name}", i, j))
    if not found:
        which = f"named {', '.join(clause.named)}" if clause.named else clause.kind or "any"
        return f"no weapon of the operatives it names matches ({which})"
    return found


def _apply(team: _Team, name: str, clause: Clause, targets: list[Target]) -> dict[str, str]:
    """Give each target the clause's option for good, recorded with the text's name; the targets
    the engine refuses it to (two rerolls that do not combine), with why."""
    refused: dict[str, str] = {}
    applied = Applied(name, clause.what, clause.notation)
    for key, i, j in targets:
        op = team.operatives[i]
        try:
            if j is None:
                changed = with_option(op.operative, clause.what, clause.notation)
                team.operatives[i] = dataclasses.replace(op, operative=changed, applied=(*op.applied, applied))
                continue
            gun = op.weapons[j]
            if clause.what == "abilities":  # its operative's, while it fights with this weapon
                gun = dataclasses.replace(gun, abilities=added(gun.abilities, clause.notation))
            else:
                gun = dataclasses.replace(gun, weapon=with_option(gun.weapon, clause.what, clause.notation))
            gun = dataclasses.replace(gun, applied=(*gun.applied, applied))
            team.operatives[i] = dataclasses.replace(op, weapons=(*op.weapons[:j], gun, *op.weapons[j + 1:]))
        except InputError as error:
            refused[key] = f"the engine refuses it here: {str(error).split(': ', 1)[-1]}"
    return refused


def weapon_rules(operatives: Sequence[TeamOperative]) -> dict[str, list[tuple[str, str]]]:
    """Every team weapon rule (a WR token marked ``*``) by name as written, with the (operative,
    weapon) pairs whose WR names it."""
    found: dict[str, list[tuple[str, str]]] = {}
    for op in operatives:
        for gun in op.weapons:
            for token in gun.ignored:
                if marked_rule(token):
                    key = next((k for k in found if rule_name(k) == rule_name(token)), token)
                    found.setdefault(key, []).append((op.name, gun.name))
    return found
