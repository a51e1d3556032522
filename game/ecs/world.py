"""One esper world per battle, addressed by unit id; queries come back sorted by that id.

esper keeps its worlds in module-global state and acts on the "current" one, so every call here
first switches to this battle's own world: two battles (or two tests) never share entities.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any, TypeVar

import esper

from game.ecs.components import (
    COMPONENTS,
    ComponentError,
    Identity,
    component_from_json,
    component_to_json,
)

C = TypeVar("C")

_names = itertools.count(1)


class WorldError(KeyError):
    """A unit id that is not in this battle."""


class BattleWorld:
    """The units of one battle. Unit ids are strings (the map's names); esper's ints stay inside."""

    def __init__(self) -> None:
        self.name = f"battle-{next(_names)}"
        self._ids: dict[str, int] = {}
        # id(component) -> (the component, its type's name, '"Name": {...}'), for to_json_text
        self._texts: dict[int, tuple[object, str, str]] = {}
        self._enter()
        esper.clear_database()

    def _enter(self) -> None:
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def close(self) -> None:
        """Forget this battle's world (esper keeps worlds until told)."""
        self._enter()
        esper.clear_database()
        esper.switch_world("default")
        if self.name in esper.list_worlds():
            esper.delete_world(self.name)

    @classmethod
    def from_json(cls, data: object) -> BattleWorld:
        """A new world holding the units `to_json` wrote (a battle snapshot's); data it could
        not have written raises ComponentError naming the unit."""
        if not isinstance(data, dict):
            raise ComponentError("units: expected an object")
        world = cls()
        try:
            for unit_id, named in data.items():
                if not isinstance(named, dict):
                    raise ComponentError(f"unit {unit_id!r}: expected an object")
                try:
                    components = [component_from_json(n, c) for n, c in named.items()]
                except ComponentError as exc:
                    raise ComponentError(f"unit {unit_id!r}: {exc}") from None
                identity = next((c for c in components if isinstance(c, Identity)), None)
                if identity is None or identity.id != unit_id:
                    raise ComponentError(f"unit {unit_id!r}: its Identity does not name it")
                world._enter()
                world._ids[unit_id] = esper.create_entity(*components)
        except BaseException:
            world.close()
            raise
        return world

    def add_unit(self, unit_id: str, *components: object) -> None:
        if unit_id in self._ids:
            raise ValueError(f"unit {unit_id!r} is already in the battle")
        self._enter()
        self._ids[unit_id] = esper.create_entity(Identity(unit_id), *components)

    def _entity(self, unit_id: str) -> int:
        try:
            return self._ids[unit_id]
        except KeyError:
            raise WorldError(f"no unit {unit_id!r} in this battle") from None

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._ids

    @property
    def unit_ids(self) -> list[str]:
        return sorted(self._ids)

    def get(self, unit_id: str, kind: type[C]) -> C:
        self._enter()
        return esper.component_for_entity(self._entity(unit_id), kind)

    def try_get(self, unit_id: str, kind: type[C]) -> C | None:
        self._enter()
        return esper.try_component(self._entity(unit_id), kind)

    def has(self, unit_id: str, kind: type) -> bool:
        self._enter()
        return esper.has_component(self._entity(unit_id), kind)

    def set(self, unit_id: str, component: object) -> None:
        """Add the component, replacing one of the same type (components are values)."""
        self._enter()
        esper.add_component(self._entity(unit_id), component)

    def remove(self, unit_id: str, kind: type) -> None:
        self._enter()
        esper.try_remove_component(self._entity(unit_id), kind)

    def units_with(self, *kinds: type) -> Iterator[str]:
        """Ids of the units having every component of `kinds`, sorted: esper's own iteration
        order is not part of its contract, and the rules must not depend on it."""
        self._enter()
        found = {
            esper.component_for_entity(e, Identity).id for e, _ in esper.get_components(*kinds)
        }
        return iter(sorted(found))

    def to_json_text(self) -> str:
        """`json.dumps(self.to_json(), sort_keys=True)`, faster: each component's text is kept
        while the unit holds that very component (components are values, replaced when they
        change; those that are not frozen, like the turn budget, are written afresh)."""
        self._enter()
        texts: dict[int, tuple[object, str, str]] = {}
        units = []
        for unit_id in sorted(self._ids):
            named = []
            components: tuple[object, ...] = esper.components_for_entity(self._ids[unit_id])
            for c in components:
                kept = self._texts.get(id(c))
                if kept is None or kept[0] is not c:
                    name, frozen = _json_name(type(c))
                    text = f"{name}: {json.dumps(component_to_json(c), sort_keys=True)}"
                    kept = (c, type(c).__name__, text)
                    if not frozen:
                        named.append((kept[1], kept[2]))
                        continue
                texts[id(c)] = kept
                named.append((kept[1], kept[2]))
            named.sort()
            units.append(f"{json.dumps(unit_id)}: {{{', '.join(text for _, text in named)}}}")
        self._texts = texts  # only the components held now: the others may be gone
        return "{" + ", ".join(units) + "}"

    def to_json(self) -> dict[str, dict[str, Any]]:
        """Every unit and its components as plain data, sorted: the state hash reads this."""
        self._enter()
        out: dict[str, dict[str, Any]] = {}
        for unit_id in sorted(self._ids):
            components: tuple[object, ...] = esper.components_for_entity(self._ids[unit_id])
            by_name = {type(c).__name__: component_to_json(c) for c in components}
            out[unit_id] = dict(sorted(by_name.items()))
        return out


_NAMES: dict[type, tuple[str, bool]] = {}


def _json_name(kind: type) -> tuple[str, bool]:
    """A component type's name as JSON, and whether its instances are frozen dataclasses."""
    known = _NAMES.get(kind)
    if known is None:
        params = getattr(kind, "__dataclass_params__", None)
        known = (json.dumps(kind.__name__), bool(getattr(params, "frozen", False)))
        _NAMES[kind] = known
    return known


__all__ = ["COMPONENTS", "BattleWorld", "WorldError"]
