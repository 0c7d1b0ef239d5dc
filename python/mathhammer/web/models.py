"""The request bodies of the HTTP API as Pydantic models, generated from the game registry.

Each profile class (``kt.Weapon``, ``sc.Unit``, ...) becomes a model of its dataclass fields, and each
action (``kt.shoot``) a model of its function's keyword arguments, a profile argument taking the
profile's model or the name (or notation) of one. Nothing is listed by hand: a new field, profile
kind or action appears in the OpenAPI document the next time the app is built (docs/web.md).

The models only shape the JSON (types, required keys, no unknown key, the request limits); the
engine still validates every value, so its errors name the field exactly as in Python.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, create_model

from mathhammer.core.game import RUNNER_PARAMETERS, Action, Game
from mathhammer.web.limits import MAX_SAMPLES

__all__ = ["BUDGETS", "SERVER_PARAMETERS", "action_model", "profile_model", "request_models"]

#: Parameters the server sets itself: the runner's (progress, executor) and the threads of a call
#: (one per computation: the server runs as many computations at once as it has cores).
SERVER_PARAMETERS = (*RUNNER_PARAMETERS, "threads")

#: Exact-engine budgets a request may lower but not raise (their defaults are the ceiling).
BUDGETS = ("max_states", "max_memory")

_FORBID = ConfigDict(extra="forbid")

# Annotations of engine parameters, as written in the signatures, that have a plain JSON shape.
_SIMPLE: dict[str, Any] = {
    "int": StrictInt,
    "bool": StrictBool,
    "str": StrictStr,
    "float": Union[StrictFloat, StrictInt],
    "int | None": Optional[StrictInt],
    "str | None": Optional[StrictStr],
    "bool | None": Optional[StrictBool],
    "tuple[int, int]": tuple[StrictInt, StrictInt],
    "int | Sequence[int]": Union[StrictInt, list[StrictInt]],
    "str | Sequence[str]": Union[StrictStr, list[StrictStr]],
    "Sequence[tuple[str, str]]": list[tuple[StrictStr, StrictStr]],
    "Sequence[str]": list[StrictStr],
    # a team (kt.matchup's): its name among the teams the server loaded, never a file's path
    "Team | str | os.PathLike[str]": StrictStr,
}


def _camel(*parts: str) -> str:
    return "".join(word.capitalize() for part in parts for word in part.replace("-", "_").split("_"))


def _field_type(hint: Any, models: dict[type, type[BaseModel]], game: Game) -> Any:
    """The JSON shape of one profile field, from its annotation."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is bool:
        return StrictBool
    if hint is int:
        return StrictInt
    if hint is str:
        return StrictStr
    if hint is float:
        return Union[StrictFloat, StrictInt]
    if origin is Union or origin is types.UnionType:
        inner = [_field_type(a, models, game) for a in args if a is not type(None)]
        shape = inner[0] if len(inner) == 1 else Union[tuple(inner)]
        return Optional[shape] if type(None) in args else shape
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple[_field_type(args[0], models, game), ...]  # type: ignore[misc]
        return tuple[tuple(_field_type(a, models, game) for a in args)]  # type: ignore[misc]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hasattr(hint, "parse"):  # rules and abilities: datacard notation, as to_dict() writes them
            return StrictStr
        for kind, cls in game.profile_kinds.items():  # another kind of the game: its table or its name
            if cls is hint:
                return Union[StrictStr, profile_model(game, kind, models)]
    if isinstance(hint, type) and hasattr(hint, "__members__"):  # an enum: its value
        return StrictStr
    return Any


def profile_model(game: Game, kind: str, models: dict[type, type[BaseModel]]) -> type[BaseModel]:
    """The model of one profile kind: its dataclass fields, the required ones required."""
    cls = game.profile_class(kind)
    if cls in models:
        return models[cls]
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        shape = _field_type(hints[f.name], models, game)
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        # defaults are the engine's: a field left out is left out of the call (exclude_unset)
        fields[f.name] = (shape, ... if required else None)
    doc = f"A {game.title} {kind} (mathhammer's {cls.__module__}.{cls.__qualname__}) as its to_dict() writes it."
    model: type[BaseModel] = create_model(_camel(game.name, kind), __config__=_FORBID, __doc__=doc, **fields)
    models[cls] = model
    return model


def _parameter_type(parameter: inspect.Parameter, annotation: str) -> Any:
    shape = _SIMPLE.get(annotation, Any)
    if parameter.name == "samples":
        return typing.Annotated[StrictInt, Field(ge=1, le=MAX_SAMPLES)]
    if parameter.name in BUDGETS and isinstance(parameter.default, int):
        return typing.Annotated[StrictInt, Field(ge=1, le=parameter.default)]
    return shape


def _default(parameter: inspect.Parameter) -> Any:
    if parameter.default is parameter.empty:
        return ...
    return None  # the call uses its own default when the key is left out (exclude_unset)


def action_model(game: Game, action: Action, models: dict[type, type[BaseModel]]) -> type[BaseModel]:
    """The request body of one action: the function's keyword arguments, less the server's own."""
    parameters = inspect.signature(action.function).parameters
    fields: dict[str, Any] = {}
    takes_any = False
    for parameter in parameters.values():
        if parameter.kind is parameter.VAR_KEYWORD:
            takes_any = not action.options
            continue
        if parameter.kind is parameter.VAR_POSITIONAL or parameter.name in SERVER_PARAMETERS:
            continue
        if parameter.name in action.profiles:
            shape: Any = Union[StrictStr, profile_model(game, action.profiles[parameter.name], models)]
        elif parameter.name in action.profile_tables:
            inner: Any = profile_model(game, action.profile_tables[parameter.name], models)
            shape = dict[StrictStr, Union[StrictStr, inner]]
        elif parameter.name in action.profile_lists:
            one: Any = Union[StrictStr, profile_model(game, action.profile_lists[parameter.name], models)]
            shape = Union[list[one], dict[StrictStr, one]]
        else:
            shape = _parameter_type(parameter, str(parameter.annotation))
        fields[parameter.name] = (shape, _default(parameter))
    # the switches of the server's libraries to turn on (docs/web.md), for an action that reads profiles
    # (a matchup's teams take their own: kt.matchup's switches)
    if game.switches is not None and (action.profiles or action.profile_tables or action.profile_lists):
        fields["with_"] = (Optional[list[StrictStr]], Field(None, alias="with"))
    for option in action.options:  # keywords a **kwargs function lists (sc.attack's)
        fields.setdefault(option, (Any, None))
    doc = (f"The keyword arguments of {action.function.__module__}.{action.function.__name__}: {action.help}. "
           "A profile is a table of its fields (its to_dict()) or the name of a profile the server loaded.")
    config = ConfigDict(extra="allow") if takes_any else _FORBID
    return create_model(_camel(game.name, action.name, "request"), __config__=config, __doc__=doc, **fields)


def request_models(games: tuple[Game, ...]) -> tuple[dict[tuple[str, str], type[BaseModel]], list[type[BaseModel]]]:
    """Every action's request model, by (game, action), and every profile model they use."""
    models: dict[type, type[BaseModel]] = {}
    requests = {(game.name, action.name): action_model(game, action, models)
                for game in games for action in game.actions}
    return requests, list(models.values())
