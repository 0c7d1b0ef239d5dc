"""A weapon's WR text, token by token: modelled, rewritten, or kept and reported with its reason.

Every comma-separated token of a WR characteristic ends in exactly one place (docs/data.md,
"Weapon rules"): ``accepted`` (a rule the engine models, in its canonical notation), ``ignored``
(understood, but outside a shot or a fight: range and position, more targets, the shooter, the
team's own rules marked ``*``), or ``unknown`` (not understood, or refused by the engine), each with
its reason. A token the data writes irregularly is ``rewritten`` first, and the report says how:
``2" Devastating 1`` is Devastating 1 on the target (the damage to others is reported), ``Piercing1``
is Piercing 1, ``Lethal 5+ Piercing 1`` is two tokens. Nothing is guessed: a token that matches
none of the forms below is unknown.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from mathhammer.core.guard import excerpt
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.profiles import WeaponRules

__all__ = ["Kept", "Rewrite", "Translation", "rule_name", "translate"]


@dataclass(frozen=True)
class Rewrite:
    """A token as written, what it was read as, and why."""

    written: str
    read_as: str
    note: str


@dataclass(frozen=True)
class Kept:
    """A token that is not modelled, and why; ``text``: a team rule's own text, when the team has it."""

    token: str
    reason: str
    text: str | None = None


@dataclass(frozen=True)
class Translation:
    """What one WR text becomes: the engine's rules and where every token went."""

    rules: WeaponRules
    accepted: tuple[str, ...] = ()
    rewritten: tuple[Rewrite, ...] = ()
    ignored: tuple[Kept, ...] = ()
    unknown: tuple[Kept, ...] = ()
    blast: int | None = None
    torrent: int | None = None


# Universal weapon rules the engine models, as datacards write them: pattern (on the normalised
# token) -> canonical form; the rows of the weapon rules table marked datacard=True.
MODELLED: tuple[tuple[str, str], ...] = tuple(WeaponRules.TABLE.datacard_forms())

# Rules understood and kept out of a shot or a fight: pattern -> (canonical form, reason); the rows
# of WeaponRules.KEPT.
KEPT: tuple[tuple[str, str, str], ...] = tuple(
    (kept.pattern(), kept.form(), kept.reason) for kept in WeaponRules.KEPT)

TEAM_RULE = "a rule of this team's own (marked {0}): not modelled"
#: Longest token tried as several rules with the commas missing, and longest WR text read.
MAX_TOKEN = 120
MAX_WR = 2000


def normalise(token: str) -> str:
    """Lower case, one space between words, every inch mark written ``"``."""
    text = token.replace("\u201d", '"').replace("\u201c", '"').replace("\u2033", '"').replace("''", '"')
    return " ".join(text.lower().split())


def rule_name(name: str) -> str:
    """A team rule's name as WR texts and rules are matched: without its marker, before or after it
    ("*Stalk" and "Stalk*" are one rule), normalised."""
    return normalise(name.strip().strip("*'").strip())


def _match(token: str) -> tuple[str, str, str | None] | None:
    """(status, canonical form, reason) of a normalised token that is one rule, else None."""
    for pattern, form in MODELLED:
        found = re.fullmatch(pattern, token)
        if found:
            return "accepted", form.format(*found.groups()), None
    for pattern, form, reason in KEPT:
        found = re.fullmatch(pattern, token)
        if found:
            groups = [g.capitalize() for g in found.groups()]
            return "ignored", form.format(*groups), reason.format(*groups)
    return None


# Irregular forms: pattern -> (what it is read as, why). Each result must itself be one rule.
REWRITES: tuple[tuple[str, Callable[[re.Match[str]], str], str], ...] = (
    (r"(\d+)\" ?devastating (\d+)", lambda m: f"devastating {m.group(2)}",
     "splash: {2} damage to each other operative within {1}\" of the target as well (not modelled)"),
    (r"([a-z][a-z ]*[a-z])(\d+)(\+|\")?", lambda m: f"{m.group(1)} {m.group(2)}{m.group(3) or ''}",
     "a space was missing before the number"),
    (r"(blast|torrent) (\d+)", lambda m: f"{m.group(1)} {m.group(2)}\"", "the inch mark was missing"),
    (r"rang (\d+)\"", lambda m: f"range {m.group(1)}\"", "'Rang' is Range misspelt"),
)


def _rewrite(token: str) -> tuple[str, str] | None:
    """(the token read as, the note) for one irregular form, else None."""
    for pattern, read, note in REWRITES:
        found = re.fullmatch(pattern, token)
        if found and _match(read(found)) is not None:
            return read(found), note.format(None, *found.groups())
    return None


def _split_words(token: str) -> list[str] | None:
    """A token that is several rules with the commas missing ("lethal 5+ piercing 1"): the
    fewest rules whose words make it up, else None."""
    words = token.split()
    best: list[list[str] | None] = [None] * (len(words) + 1)
    best[0] = []
    for end in range(1, len(words) + 1):
        for start in range(end):
            head = best[start]
            part = " ".join(words[start:end])
            if head is not None and _match(part) is not None and (best[end] is None or len(head) + 1 < len(best[end] or [])):
                best[end] = [*head, part]
    found = best[len(words)]
    return found if found is not None and len(found) > 1 else None


def _read_token(written: str) -> tuple[list[tuple[str, str, str | None]], list[Rewrite], str | None]:
    """The rules one written token stands for, the rewrites that took, and the team-rule marker
    when it is one of the team's rules (``Poison*``)."""
    token = written.strip()
    rewrites: list[Rewrite] = []
    unbold = re.sub(r"\*\*(.+?)\*\*", r"\1", token)
    if unbold != token:
        rewrites.append(Rewrite(token, unbold, "markdown bold taken off"))
        token = unbold
    if token.endswith(("*", "'")) and len(token.rstrip("*'").strip()) > 0:
        return [], rewrites, token[-1]
    key = normalise(token)
    found = _match(key)
    if found is not None:
        return [found], rewrites, None
    again = _rewrite(key)
    read = _match(again[0]) if again is not None else None
    if again is not None and read is not None:
        rewrites.append(Rewrite(token, read[1], again[1]))
        return [read], rewrites, None
    parts = _split_words(key) if len(key) <= MAX_TOKEN else None
    if parts is not None:
        matched = [m for m in (_match(p) for p in parts) if m is not None]
        rewrites.append(Rewrite(token, ", ".join(m[1] for m in matched), "a comma was missing"))
        return matched, rewrites, None
    return [], rewrites, None


def _distance(form: str, name: str) -> int | None:
    found = re.fullmatch(rf"{name} (\d+)\"", form.lower())
    return int(found.group(1)) if found else None


@functools.lru_cache(maxsize=4096)
def _translate(text: str) -> Translation:
    accepted: list[str] = []
    rewritten: list[Rewrite] = []
    ignored: list[Kept] = []
    unknown: list[Kept] = []
    blast = torrent = None
    if len(text) > MAX_WR:
        return Translation(WeaponRules(), unknown=(Kept(text[:40] + "...", f"a WR text of {len(text)} characters; "
                                                        f"at most {MAX_WR}"),))
    for written in (part.strip() for part in text.split(",")):
        if not written or written in ("-", "\u2013", "\u2014"):
            continue
        rules, rewrites, team = _read_token(written)
        rewritten.extend(rewrites)
        if team is not None:
            ignored.append(Kept(written, TEAM_RULE.format(team)))
            continue
        if not rules:
            unknown.append(Kept(written, "not a weapon rule the importer knows"))
            continue
        for status, form, reason in rules:
            if status == "ignored":
                ignored.append(Kept(form, reason or ""))
                blast = _distance(form, "blast") if blast is None else blast
                torrent = _distance(form, "torrent") if torrent is None else torrent
                continue
            try:
                WeaponRules.parse(", ".join([*accepted, form]))
            except InputError as error:  # twice, out of range, or a reroll that does not combine
                unknown.append(Kept(form, f"the engine refuses it: {str(error).split(': ', 1)[1]}"))
                continue
            accepted.append(form)
    modelled = WeaponRules.parse(", ".join(accepted)) if accepted else WeaponRules()
    return Translation(modelled, tuple(accepted), tuple(rewritten), tuple(ignored), tuple(unknown), blast, torrent)


def translate(text: str, team_rules: Mapping[str, str] | None = None) -> Translation:
    """The WR text read token by token. ``team_rules`` maps a rule's normalised name to its text:
    a team rule (``Poison*``) gets its text attached when the team has it."""
    if not isinstance(text, str):
        raise InputTypeError("text", f"expected a weapon's WR text, got {excerpt(text)}")
    if team_rules is not None and not isinstance(team_rules, Mapping):
        raise InputTypeError("team_rules", f"expected a table of rule names and texts or None, got {excerpt(team_rules)}")
    done = _translate(text)
    if not team_rules or not any(k.reason.startswith("a rule of this team") for k in done.ignored):
        return done
    ignored = tuple(replace(k, text=team_rules.get(rule_name(k.token)))
                    if k.reason.startswith("a rule of this team") else k for k in done.ignored)
    return replace(done, ignored=ignored)
