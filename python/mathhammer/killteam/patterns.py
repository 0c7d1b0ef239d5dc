"""Ability texts read as engine options: the phrasings of Kill Team datacards that mean a row of the
rules tables (killteam/profiles.py), declared once, as rows (docs/data.md, "Abilities").

A text is read clause by clause (sentences, bullets, ";" parts). A clause is an *effect* — a row of
:data:`EFFECTS`, each the whole of one phrasing ("defence dice results of x+ are critical
successes") with the engine option it means ("Hardy x+") — after an optional *condition*, separated
from it by a comma. An effect that names its own trigger ("whenever an attack dice inflicts damage
on this operative") needs the condition to end with that trigger, word for word. What is left of
the condition is one of :data:`ALWAYS` (true in every shot or fight the option plays in: "whenever
this operative is shooting"), or a condition the engine cannot decide, made of words that say so
(:data:`CUES`: once per battle, a token, a range, the enemy, an order, a ploy...): the option is
then a switch, off until turned on. A clause whose effect matches no row whole, or whose condition
is neither, is not recognised, and :func:`read_text` says why. Nothing is read from an ability's
name: three teams' "Hardy" are three rules.

Adding a phrasing: a row of :data:`EFFECTS` (its placeholders are :data:`PLACEHOLDERS`), a test of
it on an invented text in tests/killteam/test_patterns.py, and its line in docs/data.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mathhammer.core.guard import excerpt
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.profiles import Abilities, WeaponRules

__all__ = ["ALWAYS", "CUES", "EFFECTS", "MAX_CLAUSE", "MAX_SPLITS", "MAX_TEXT", "PLACEHOLDERS", "Clause", "Effect", "clauses", "normalise_text",
           "read_clause", "read_text"]

#: The longest ability text read (a longer one is not recognised, with that reason).
MAX_TEXT = 4000
#: The longest clause read (a published one has at most about 300 characters): a longer one is not
#: recognised, with that reason. Reading a clause costs time in proportion to its length at most.
MAX_CLAUSE = 600
#: The most commas of a clause tried as the end of its condition (a published clause has a few).
MAX_SPLITS = 8

#: A keyword of operatives ("plague marine", "exaction squad gunner"): words, none of them "operative".
_KW = r"(?:(?!operatives?\b)[a-z0-9'&.-]+ )*?(?!operatives?\b)[a-z0-9'&.-]+"
#: The words of a phrasing that stand for a part of the text: a number, the operative(s) it is
#: about, whose weapons, which weapons, which weapon rules.
PLACEHOLDERS: dict[str, str] = {
    "x": r"(?P<x>\d{1,2})",
    # the operative(s): "this operative", "a friendly PLAGUE MARINE operative" (kw: the keyword)
    "subject": rf"(?:this operative|it|that (?:friendly )?operative|(?:a|each) friendly (?:(?P<kw>{_KW}) )?operative)",
    "someone": rf"(?:this operative|it|that (?:friendly )?operative|(?:a|each) friendly (?:{_KW} )?operative)",
    # whose weapons: "its", "this operative's", "friendly KOMMANDO operatives'"
    "owner": rf"(?:this operative's|its|that (?:friendly )?operative's|(?:each )?friendly (?:(?P<kw>{_KW}) )?"
             r"operatives')",
    # which weapons: a kind, all of them, or weapons by name ("bolt pistols and boltguns")
    "weapons": r"(?:(?P<kind>ranged|melee) weapons|weapons|(?P<named>[a-z][a-z0-9 ,'&-]*?))",
    # weapon rules by name: "the Severe weapon rule", "the Accurate 1 and Balanced weapon rules"
    "rules": r"(?P<rules>[a-z0-9+\" ,'-]+?) weapon rules?",
}


@dataclass(frozen=True)
class Effect:
    """One phrasing and the engine option it means.

    ``text``: the phrasing, a regular expression of the clause's effect (lower case, one space
    between words; ``{name}`` a placeholder of :data:`PLACEHOLDERS`), matched whole. ``what``:
    "abilities" (an ``Abilities`` notation for the operative), "rules" (a ``WeaponRules``
    notation for weapons) or "stats" ("Atk +1", "Hit +1", "Dmg +1" for weapons, "Save +1" for the
    operative: +1 is one better). ``notation``: the option, ``{x}`` the number read (``{rules}``:
    the weapon rules the text names). ``on``: "operative" or "weapons". ``trigger``: a phrasing
    the condition before the effect must end with (the effect's own "whenever ..."); ``limited``:
    False when that trigger alone holds every time (then a condition must limit it, "once per
    battle", or the clause is not recognised).
    """

    name: str
    text: str
    what: str
    notation: str
    on: str
    trigger: str = ""
    limited: bool = True
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)
    trigger_pattern: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    literal: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", re.compile(_expand(self.text)))
        object.__setattr__(self, "literal", _required(_expand(self.text)))
        tail = re.compile(rf"(?:(?P<before>.*), )?{_expand(self.trigger)}") if self.trigger else None
        object.__setattr__(self, "trigger_pattern", tail)


def _required(text: str) -> str:
    """The longest run of plain characters a regular expression always matches (outside groups
    and classes, and no optional character): a clause without it cannot match, and is not tried."""
    runs, run, depth, at = [""], "", 0, 0
    while at < len(text):
        char = text[at]
        if char == "\\" and at + 1 < len(text):  # an escaped sign is itself; \d, \b are no text
            char, at = text[at + 1], at + 1
            if depth == 0 and not char.isalnum():
                run += char
            elif depth == 0:
                runs.append(run)
                run = ""
        elif char in "({[":
            depth += 1
            runs.append(run)
            run = ""
        elif char in ")}]":
            depth -= 1
        elif char in "?*+" and depth == 0:  # the character before is optional: the run ends before it
            runs.append(run[:-1])
            run = ""
        elif char == "|" and depth == 0:
            runs, run = [""], ""  # an alternation at the top: nothing is required
        elif depth == 0:
            run += char
        at += 1
    runs.append(run)
    return max(runs, key=len).strip()


def _expand(text: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: PLACEHOLDERS[m.group(1)], text)


_DEFENCE = "an attack dice inflicts"
#: The phrasings recognised, in the order they are tried (the first that matches a clause wins).
EFFECTS: tuple[Effect, ...] = (
    Effect("Hardy", r"defence dice results of {x}\+ are critical successes", "abilities", "Hardy {x}+", "operative"),
    Effect("Feel No Pain", r"roll one d6: on an? {x}\+, subtract 1 from that inflicted damage", "abilities",
           "Feel No Pain {x}+", "operative", trigger=rf"(?:whenever|each time) {_DEFENCE} damage on {{subject}}"),
    Effect("Just a Scratch (normals)", r"(?:you can )?ignore that inflicted damage", "abilities",
           "Just a Scratch (normals)", "operative",
           trigger=rf"the first time {_DEFENCE} normal dmg on {{subject}}(?: during (?:that|each) sequence)?"),
    Effect("Just a Scratch (normals), limited by its condition", r"(?:you can )?ignore that inflicted damage",
           "abilities", "Just a Scratch (normals)", "operative",
           trigger=rf"when(?:ever)? {_DEFENCE} normal dmg on {{subject}}", limited=False),
    Effect("Durable", r"(?:that dice |it )?inflicts 1 less damage(?: on (?:it|{someone}))?", "abilities", "Durable",
           "operative", trigger=rf"the first time {_DEFENCE} critical dmg of 4 or more on {{subject}}"
                                r"(?: during (?:that|each) sequence)?"),
    Effect("Dueller", r"each of your blocks with a critical success can be allocated to block two unresolved "
                      r"successes(?: \(instead of one\))?", "abilities", "Dueller", "operative"),
    Effect("Storm Shield", r"each of your blocks can be allocated to block two unresolved successes"
                           r"(?: \(instead of one\))?", "abilities", "Storm Shield", "operative"),
    Effect("Balanced Saves", r"you can re-roll one of your defence dice", "abilities", "Balanced Saves", "operative"),
    Effect("Ceaseless Saves", r"you can re-roll any of your defence dice results of one result(?: \(eg results of 2\))?",
           "abilities", "Ceaseless Saves", "operative"),
    Effect("Relentless Saves", r"you can re-roll any (?:or all )?of your defence dice", "abilities", "Relentless Saves",
           "operative"),
    Effect("Balanced", r"you can re-roll one of your attack dice", "rules", "Balanced", "weapons"),
    Effect("Ceaseless", r"you can re-roll any of your attack dice results of one result(?: \(eg results of 2\))?",
           "rules", "Ceaseless", "weapons"),
    Effect("Relentless", r"you can re-roll any (?:or all )?of your attack dice", "rules", "Relentless", "weapons"),
    Effect("weapon rules", r"{owner} {weapons} (?:have|has|gain) the {rules}", "rules", "{rules}", "weapons"),
    Effect("weapon rules of this weapon", r"(?:this weapon|it) (?:has|gains) the {rules}", "rules", "{rules}",
           "weapons"),
    Effect("Dmg +1", r"add 1 to both (?:of )?(?:the )?dmg stats of (?:this weapon|{owner} {weapons})", "stats",
           "Dmg +1", "weapons"),
    Effect("Atk +1", r"add 1 to the atk stat of (?:this weapon|{owner} {weapons})", "stats", "Atk +1", "weapons"),
    Effect("Hit +1", r"improve the hit stat of (?:this weapon|{owner} {weapons}) by 1", "stats", "Hit +1", "weapons"),
    Effect("Save +1", r"improve (?:its|this operative's|the) save stat(?: of {someone})? by 1"
                      r"(?: \(to a maximum of 2\+\))?", "stats", "Save +1", "operative"),
    # the target's defences (docs/rules/killteam.md §2.3)
    Effect("Reduce Normal Dmg", r"normal dmg of {x} or more inflicts 1 less damage on (?:it|{someone})", "abilities",
           "Reduce Normal Dmg {x}+", "operative"),
    Effect("Reduce Dmg", r"normal and critical dmg of {x} or more (?:each )?inflicts? 1 less damage on (?:it|{someone})",
           "abilities", "Reduce Dmg {x}+", "operative"),
    Effect("Crits as Normal Dmg", r"you can choose for that attack dice to inflict normal dmg instead", "abilities",
           "Crits as Normal Dmg", "operative", trigger=r"whenever an attack dice would inflict critical dmg on {subject}"),
    Effect("Ignore weapon rules", r"ignore the {rules}", "abilities", "{ignore}", "operative"),
    Effect("Worsen Piercing", r"worsen the x of the piercing weapon rule by 1(?: \(if any\))?(?: until the end of that sequence)?", "abilities",
           "Worsen Piercing", "operative"),
)
#: Abilities that act in shots and in every strike of a fight (§2.3): applied for good only under a
#: condition that holds in both ("whenever this operative is fighting or retaliating, or an operative
#: is shooting it") or none; a condition of one of the two would give them to the other too.
_SHOTS_AND_FIGHTS = ("Reduce Normal Dmg", "Reduce Dmg", "Crits as Normal Dmg")

#: Conditions true in every shot or fight the option plays in, and which weapons they leave:
#: "ranged", "melee", "" (any), "weapon" (the weapon the rule belongs to), "defence" (the operative
#: is shot: its weapons are not meant).
ALWAYS: tuple[tuple[str, str], ...] = (
    (r"whenever {subject} is shooting", "ranged"),
    (r"whenever {subject} is (?:fighting or retaliating|retaliating or fighting)", "melee"),
    (r"whenever {subject} is (?:shooting, fighting or retaliating|fighting, retaliating or shooting)", ""),
    (r"whenever an (?:enemy )?operative is shooting {subject}", "defence"),
    (r"whenever {subject} is fighting or retaliating, or an (?:enemy )?operative is shooting (?:it|{someone})",
     "defence"),
    (r"whenever {subject} is (?:using|fighting with|fighting or retaliating with|shooting with) this weapon"
     r"(?: profile)?", "weapon"),
)
_ALWAYS = tuple((re.compile(_expand(text)), context) for text, context in ALWAYS)

#: How a condition the engine cannot decide starts, and the words that say what it depends on
#: (each a label of the report): a condition is a switch's when it starts so and holds one of them.
_STARTS = re.compile(r"(?:once|whenever|when|while|if|until|during|in the|the first time|each time|after|before|"
                     r"strategic gambit|firefight ploy|for the)\b")
CUES: tuple[tuple[str, str], ...] = (
    ("once per battle", r"once per battle"),
    ("once per turning point", r"once (?:per|during each|in each) turning point"),
    ("a token", r"\btokens?\b"),
    ("a range", r"within \d+\"|more than \d+\"|\d+\" of"),
    ("the enemy", r"\benemy\b|\byour mark\b"),
    ("an order", r"\b(?:conceal|engage) order\b"),
    ("cover", r"\bcover\b|\bobscured\b"),
    ("a marker", r"\bobjective\b|\bmarker\b"),
    ("its wounds", r"\binjured\b|\bwounded\b|lost wounds|incapacitated"),
    ("its activation", r"\bactivation\b|counteract|\bcharge\b|fall back|reposition|\bdash\b|\bmoved?\b"),
    ("a ploy", r"\bploy\b|\bgambit\b|\bcp\b"),
    ("retaliating", r"\bretaliating\b"),
    ("fighting, not retaliating", r"\bis fighting\b"),
    ("the turning point", r"turning point"),
    ("a choice", r"\bselect(?:ed)?\b|\bchosen\b|\bchoose\b"),
)
_CUES = tuple((label, re.compile(text)) for label, text in CUES)

#: Why an effect matched whole does not count when its own trigger does not.
_OWN_TRIGGER = "not under its own condition"
#: "a friendly X operative" in a condition: the operatives a clause is about.
_KEYWORD = re.compile(rf"\b(?:a|each) friendly ({_KW}) operative\b")
#: Sentences that qualify another and change no dice by themselves ("This isn't cumulative with ...").
_NOTES = re.compile(r"(?:this|that) (?:isn't|is not) cumulative.*|note (?:that )?this isn't.*|this takes precedence.*|"
                    r"(?:this|that) rule has no effect.*")
# How a text is cut into clauses: lines and bullets, sentences and ";" parts; a bullet's dash, a
# choice's label ("aggressive: "), markdown marks, the stops of "e.g." and "i.e.".
_LINES = re.compile(r"[\n\u2022\u25b6\u25c6]+")
_SENTENCES = re.compile(r"(?<=\.)\s+|;\s*")
_BULLET = re.compile(r"^[-\s]+")
_LABEL = re.compile(r"^[a-z][a-z0-9' -]{0,30}: ")
_MARKS = re.compile(r"[*#]+")
_ABBREVIATIONS = re.compile(r"\b(e)\.(g)\.|\b(i)\.(e)\.", re.IGNORECASE)
#: Words of a clause about the dice (to say why a clause the table does not know was set aside).
_DICE = ("dice", "damage", "dmg", "hit stat", "atk stat", "save stat", "critical", "success", "re-roll", "block",
         "weapon rule", "piercing", "lethal", "defence")


@dataclass(frozen=True)
class Clause:
    """One clause of an ability text and what it means.

    ``text``: the clause as read (normalised). When recognised (``effect`` set): ``what``,
    ``notation`` (the option in the rules tables' notation, or a stat change), ``on``
    ("operative" or "weapons"), ``kind`` (the weapons: "ranged", "melee", "" for any, "weapon" for
    the weapon whose rule the text is), ``named`` (weapons named in the text, "bolt pistol"),
    ``keyword`` (the operatives: "" for the one the text belongs to, else the keyword of "a friendly
    X operative", "*" for any friendly operative), ``condition`` (empty when always true, else the
    condition's words), ``cues`` (what the condition depends on) and ``left_out`` (weapon rules the
    text names that the engine does not model, and why). Else ``reason`` says why not.
    """

    text: str
    effect: Effect | None = None
    what: str = ""
    notation: str = ""
    on: str = ""
    kind: str = ""
    named: tuple[str, ...] = ()
    keyword: str = ""
    condition: str = ""
    cues: tuple[str, ...] = ()
    reason: str = ""
    left_out: str = ""

    @property
    def recognised(self) -> bool:
        return self.effect is not None

    @property
    def conditional(self) -> bool:
        return bool(self.condition)


def normalise_text(text: str) -> str:
    """An ability text as the phrasings read it: lower case, one space between words, plain quotes,
    no markdown marks (``**``, ``##``, ``*``), "e.g." and "i.e." without their stops."""
    text = (text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
            .replace("\u2033", '"').replace("''", '"'))
    text = _MARKS.sub("", text)
    text = _ABBREVIATIONS.sub(lambda m: "".join(g for g in m.groups() if g), text)
    return " ".join(text.lower().split())


def clauses(text: str) -> list[str]:
    """A text's clauses: its lines, bullets (-, •, ▶, ◆), sentences and ";" parts, normalised, each
    without its closing stop. A line ending in ":" ("Whenever this operative is using this
    weapon:") is the condition of each clause of the lines after it (a label such as "Aggressive:"
    starting one of them is left out)."""
    parts: list[str] = []
    lead = ""
    for line in _LINES.split(text):
        line = _BULLET.sub("", normalise_text(line))
        if line.endswith(":"):
            lead = line.rstrip(":").strip()
            continue
        if lead:  # a choice's label ("- Aggressive: its melee weapons have ...") is not the clause
            line = _LABEL.sub("", line)
        for sentence in _SENTENCES.split(line):
            sentence = _BULLET.sub("", sentence).rstrip(" .").strip()
            if sentence and not _NOTES.fullmatch(sentence):
                parts.append(f"{lead}, {sentence}" if lead else sentence)
    return parts


def read_text(text: str) -> list[Clause]:
    """Every clause of an ability text, recognised or not (with the reason)."""
    if not isinstance(text, str):
        raise InputTypeError("text", f"expected an ability's text, got {excerpt(text)}")
    if len(text) > MAX_TEXT:
        return [Clause(text[:40] + "...", reason=f"a text of {len(text)} characters; at most {MAX_TEXT}")]
    return [read_clause(clause) for clause in clauses(text)]


def read_clause(clause: str) -> Clause:
    """One normalised clause read: the first row of :data:`EFFECTS` it matches whole (after a
    condition the row accepts), or the reason none does."""
    if len(clause) > MAX_CLAUSE:
        return Clause(clause[:40] + "...", reason=f"a clause of {len(clause)} characters; at most {MAX_CLAUSE}")
    near: list[Clause] = []  # effects matched whole under a condition that would not do
    candidates = [effect for effect in EFFECTS if effect.literal in clause]
    splits = [m.end() for m, _ in zip(re.finditer(", ", clause), range(MAX_SPLITS))] if candidates else []
    for start in [0, *splits]:
        condition, effect_text = clause[:start].removesuffix(", "), clause[start:]
        for effect in candidates:
            found = effect.pattern.fullmatch(effect_text)
            if found is None:
                continue
            read = _with_condition(clause, effect, found, condition, effect_text)
            if read.recognised:
                return read
            near.append(read)
    if near:  # the reason of a row whose own trigger matched says more than one whose did not
        return next((read for read in near if _OWN_TRIGGER not in read.reason), near[0])
    if any(word in clause for word in _DICE):
        return Clause(clause, reason="about the dice, but no phrasing of the table matches it whole")
    return Clause(clause, reason="no effect on a shot's or a fight's dice")


def _with_condition(clause: str, effect: Effect, found: re.Match[str], condition: str, effect_text: str) -> Clause:
    """The clause read with ``effect``, its condition checked: the effect's own trigger at its end,
    then the rest always true or a condition the engine cannot decide."""
    groups = {key: value for key, value in found.groupdict().items() if value is not None}
    if effect.trigger_pattern is not None:
        trigger = effect.trigger_pattern.fullmatch(condition)
        if trigger is None:
            said = f" ({condition!r})" if condition else ""
            return Clause(clause, reason=f"like {effect.name}, but {_OWN_TRIGGER}{said}: no engine option")
        groups.update({k: v for k, v in trigger.groupdict().items() if v is not None and k not in groups})
        condition = groups.pop("before", "") or ""
        if not effect.limited and not condition:
            return Clause(clause, reason=f"like {effect.name}, but every time, with no limit: no engine option")
    context = ""
    if condition:
        always = [(m, context) for pattern, context in _ALWAYS if (m := pattern.fullmatch(condition))]
        if always:
            match, context = always[0]
            shots, fights = "shooting" in condition, bool(re.search(r"fighting|retaliating", condition))
            if effect.name in _SHOTS_AND_FIGHTS and shots != fights:
                only = "shot" if shots else "fighting"
                return Clause(clause, reason=f"{effect.name} only while it is {only}: the engine's option acts in "
                                             "shots and fights alike")
            groups.update({k: v for k, v in match.groupdict().items() if v is not None and k not in groups})
            condition = ""
        else:
            cues = tuple(label for label, pattern in _CUES if pattern.search(condition))
            if not _STARTS.match(condition) or not cues:
                return Clause(clause, reason=f"its condition is not one the table knows: {condition!r}")
            return _reading(clause, effect, effect_text, groups, _context_of(condition), condition, cues)
    return _reading(clause, effect, effect_text, groups, context, "", ())


def _context_of(condition: str) -> str:
    """Which weapons a switch's condition leaves: shooting, fighting, or with this weapon."""
    if re.search(r"\bthis weapon\b", condition):
        return "weapon"
    shooting, fighting = bool(re.search(r"\bshooting\b", condition)), bool(re.search(r"\bfighting|retaliating", condition))
    if re.search(r"operative is shooting (?:this|it|a friendly)", condition):
        return "defence"
    return "ranged" if shooting and not fighting else "melee" if fighting and not shooting else ""


def _reading(clause: str, effect: Effect, effect_text: str, groups: dict[str, str], context: str, condition: str,
             cues: tuple[str, ...]) -> Clause:
    notation = effect.notation.replace("{x}", groups.get("x", ""))
    left_out = ""
    if "{rules}" in notation:
        notation, left_out = _rules(groups.get("rules", ""))
        if not notation:
            return Clause(clause, reason=left_out)
    if "{ignore}" in notation:
        notation, left_out = _ignored(groups.get("rules", ""))
        if not notation:
            return Clause(clause, reason=left_out)
    try:  # the option the notation names must be one the engine takes
        if effect.what == "abilities":
            Abilities.parse(notation)
        elif effect.what == "rules":
            WeaponRules.parse(notation)
    except InputError as error:
        return Clause(clause, reason=f"the engine refuses {notation!r}: {str(error).split(': ', 1)[1]}")
    kind = groups.get("kind", "")
    if kind and context in ("ranged", "melee") and kind != context:
        return Clause(clause, reason=f"{kind} weapons while {context}: the two cannot meet")
    if effect.on == "weapons" and context == "defence":
        return Clause(clause, reason="its own weapons while it is shot: no engine option")
    kind = kind or (context if context in ("ranged", "melee", "weapon") else "")
    named = tuple(_names(groups["named"])) if "named" in groups else ()
    if re.search(r"\bthis weapon\b", effect_text) or effect.name.endswith("this weapon"):
        kind = "weapon"
    keyword = groups.get("kw", "")
    if not keyword:  # the operatives the condition names ("whenever a friendly X operative is ...")
        named_in_condition = _KEYWORD.search(condition)
        keyword = named_in_condition.group(1) if named_in_condition else ""
    if not keyword and re.search(r"\bfriendly operatives?\b", clause):
        keyword = "*"
    return Clause(clause, effect, effect.what, notation, effect.on, kind, named, keyword, condition, cues, "", left_out)


def _rules(text: str) -> tuple[str, str]:
    """The weapon rules a list names ("poison and severe"): those the engine models, in the rules
    table's notation, and what was left out and why (empty when nothing was)."""
    names = [part.strip() for part in re.split(r",\s*|\s+and\s+", text) if part.strip()]
    modelled, left = [], []
    for name in names:
        # a token that changes nothing in a shot or a fight first (parse would set it aside quietly)
        kept = next((k for k in WeaponRules.KEPT if re.fullmatch(k.pattern(), name)), None)
        found = re.fullmatch(kept.pattern(), name) if kept is not None else None
        if kept is not None and found is not None:
            left.append(f"{name}: {kept.reason.format(*found.groups())}")
            continue
        try:
            modelled.append(str(WeaponRules.parse(name)))
        except InputError:
            left.append(f"{name!r} is not a weapon rule the engine models")
    return ", ".join(modelled), "; ".join(left)


def _ignored(text: str) -> tuple[str, str]:
    """The weapon rules a text says to ignore ("the piercing and lethal"): the abilities that ignore
    them (Ignore Piercing, §2.3), and those no ability ignores."""
    names = [part.strip() for part in re.split(r",\s*|\s+and\s+|\s+or\s+", text) if part.strip()]
    ignored, left = [], []
    for name in names:
        base = re.sub(r"\s+(?:\d+\+?|x\+?)$", "", name)  # "piercing 1", "lethal x+": the rule itself
        try:
            ignored.append(str(Abilities.parse(f"Ignore {base}")))
        except InputError:
            left.append(f"{name!r}: no ability of the engine ignores it")
    return ", ".join(ignored), "; ".join(left)


def _names(text: str) -> list[str]:
    """Weapons named in a clause ("bolt pistols and boltguns", "bolt weapons"): each name, singular."""
    names = []
    for part in re.split(r",\s*|\s+and\s+|\s+or\s+", text):
        part = re.sub(r"\s+weapons?$", "", part.strip())
        if part:
            names.append(re.sub(r"(?<=[a-z])(?:es|s)$", "", part) if not part.endswith("ss") else part)
    return names
