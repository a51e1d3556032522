"""The d20 ruleset object: cover by corner lines on the battlefield (D-1, D-3, 004:l.52-68),
flanking with allies that threaten (004:l.94-104), higher ground, map units' sample sheets."""

from __future__ import annotations

from pathlib import Path

from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import ruleset_for
from game.tactics.rulesets import d20

ROOT = Path(__file__).resolve().parents[3]


def field(
    cells: list[dict[str, object]], *entities: dict[str, object], size=(12, 5, 2)
) -> Battlefield:  # type: ignore[no-untyped-def]
    bf, _ = parse_scenario(
        {"ruleset": "d20", "map": {"size": list(size), "cells": cells}, "entities": list(entities)},
        ROOT,
    )
    return bf


def unit(name: str, faction: str, at: tuple[int, int, int], **sheet: object) -> dict[str, object]:
    return {"id": name, "faction": faction, "at": list(at), "sheet": sheet}


def cover(bf: Battlefield, a: str, t: str, melee: bool = False) -> str:
    return d20.cover_between(bf, bf.by_id[a], bf.by_id[t], melee).grade


def test_open_ground_gives_no_cover() -> None:
    bf = field([], unit("a", "red", (1, 2, 0)), unit("t", "blue", (6, 2, 0)))
    assert cover(bf, "a", "t") == "none"


def test_a_wall_corner_gives_cover_while_the_target_stays_in_sight_004_l52() -> None:
    # Attacker (1,2,0), target (6,0,0) behind the corner of a full block (4,0,0). The centre
    # line (1.5,2.5)->(6.5,0.5) is in row 1 over x 4..5 (y 1.5..1.1): in sight. But from the
    # best corner (2,2) the line to the target's corner (6,0) has y = 2 - (x-2)/2, 1..0.5 over
    # x 4..5: inside the block; every other corner fares no better. Cover, not total.
    bf = field(
        [{"at": [4, 0, 0], "obstacle": "full"}],
        unit("a", "red", (1, 2, 0)),
        unit("t", "blue", (6, 0, 0)),
    )
    assert cover(bf, "a", "t") == "normal"
    # A thin column two rows aside (3,0,0) of a shot along row 2: every line from the
    # corners (x, 2) stays in y 2..3 and never enters it.
    bf = field(
        [{"at": [3, 0, 0], "obstacle": "thin"}],
        unit("a", "red", (1, 2, 0)),
        unit("t", "blue", (6, 2, 0)),
    )
    assert cover(bf, "a", "t") == "none"


def test_a_low_obstacle_covers_only_a_target_within_6_cells_of_it_d3_004_l56() -> None:
    # D-3: "gives cover only when the target is within 6 cells of it". A half wall at
    # (1,2,0) next to the attacker (0,2,0): target at (7,2,0) is 6 cells from it, at
    # (8,2,0) 7 cells. The attacker is nearer than the target in both cases, though, so
    # l.56's second sentence decides those: use a target-side wall instead. Wall (5,2,0),
    # attacker (0,2,0) 5 cells away; target (6,2,0) 1 cell away: cover. Target (11,2,0) with
    # the wall at (4,2,0): 7 from the target, 4 from the attacker: the attacker is nearer, so
    # ignored either way; the 6-cell limit shows with the wall at (2,2,0) on a 10-cell shot
    # from (0,2,0) to (10,2,0): 8 from the target (too far) though the attacker is 2 away.
    near = field(
        [{"at": [5, 2, 0], "obstacle": "half"}],
        unit("a", "red", (0, 2, 0)),
        unit("t", "blue", (6, 2, 0)),
    )
    assert cover(near, "a", "t") == "normal"
    far = field(
        [{"at": [2, 2, 0], "obstacle": "half"}],
        unit("a", "red", (0, 2, 0)),
        unit("t", "blue", (10, 2, 0)),
    )
    assert cover(far, "a", "t") == "none"


def test_a_low_obstacle_is_ignored_by_an_attacker_nearer_to_it_than_the_target_d3() -> None:
    # D-3 / l.56 "L'attaccante può ignorare la copertura se è più vicino all'ostacolo del suo
    # avversario": wall (2,2,0), attacker (1,2,0) 1 away, target (5,2,0) 3 away: ignored.
    # Equal distances (attacker (0,2,0), target (4,2,0), both 2 away) do not ignore it.
    nearer = field(
        [{"at": [2, 2, 0], "obstacle": "half"}],
        unit("a", "red", (1, 2, 0)),
        unit("t", "blue", (5, 2, 0)),
    )
    assert cover(nearer, "a", "t") == "none"
    equal = field(
        [{"at": [2, 2, 0], "obstacle": "half"}],
        unit("a", "red", (0, 2, 0)),
        unit("t", "blue", (4, 2, 0)),
    )
    assert cover(equal, "a", "t") == "normal"


def test_a_creature_between_gives_soft_cover_even_an_enemy_d3_004_l64() -> None:
    # D-3: "between the attacker and a ranged target they give soft cover"; l.64 "persino i
    # propri nemici".
    for faction in ("red", "blue"):
        bf = field(
            [],
            unit("a", "red", (1, 2, 0)),
            unit("x", faction, (3, 2, 0)),
            unit("t", "blue", (5, 2, 0)),
        )
        assert cover(bf, "a", "t") == "soft"


def test_creatures_never_block_sight_d3_but_a_wall_does_total_cover_004_l68() -> None:
    # A wall of full cells across the whole map (x = 3, every y, both levels): no line of
    # sight, total cover.
    walls = [{"at": [3, y, z], "obstacle": "full"} for y in range(5) for z in range(2)]
    bf = field(walls, unit("a", "red", (1, 2, 0)), unit("t", "blue", (6, 2, 0)))
    assert cover(bf, "a", "t") == "total"
    crowd = field(
        [],
        unit("a", "red", (1, 2, 0)),
        *(unit(f"x{y}", "blue", (3, y, 0)) for y in range(5)),
        unit("t", "blue", (6, 2, 0)),
    )
    assert cover(crowd, "a", "t") == "soft"


def test_melee_against_an_adjacent_target_counts_any_wall_a_low_one_too_004_l54() -> None:
    # Diagonal neighbours (1,1,0) and (2,2,0) with a half wall at (2,1,0): "qualsiasi linea
    # ... attraversa un muro (compreso un muretto)". No wall: none. Creatures never count.
    low = field(
        [{"at": [2, 1, 0], "obstacle": "half"}],
        unit("a", "red", (1, 1, 0)),
        unit("t", "blue", (2, 2, 0)),
    )
    assert cover(low, "a", "t", melee=True) == "normal"
    bare = field(
        [], unit("a", "red", (1, 1, 0)), unit("x", "red", (2, 1, 0)), unit("t", "blue", (2, 2, 0))
    )
    assert cover(bare, "a", "t", melee=True) == "none"


def test_flanking_needs_an_ally_that_threatens_across_opposite_borders_004_l96_l102() -> None:
    # a (1,2,0) and ally (3,2,0) across the target (2,2,0): flanked. A knight's-move ally
    # (3,1,0) does not flank; an enemy across gives nothing; a helpless ally threatens nothing.
    def ally_of(at: tuple[int, int, int], faction: str = "red", **sheet: object) -> str | None:
        bf = field(
            [],
            unit("a", "red", (1, 2, 0)),
            unit("t", "blue", (2, 2, 0)),
            unit("b", faction, at, **sheet),
        )
        return d20.flanking_ally(bf, bf.by_id["a"], bf.by_id["t"])

    assert ally_of((3, 2, 0)) == "b"
    # Centres (1.5,2.5) and (3.5,3.5): y = 2.5 + (x-1.5)/2 enters the target's square
    # [2,3] x [2,3] at x = 2 (y 2.75) and leaves by y = 3 at x = 2.5: not opposite borders.
    assert ally_of((3, 3, 0)) is None
    assert ally_of((3, 2, 0), faction="green") is None
    assert ally_of((3, 2, 0), conditions=["indifeso"]) is None


def test_an_ally_with_reach_2_threatens_from_two_cells_and_reach_0_never_flanks_004_l104() -> None:
    def flanked(ally_at: tuple[int, int, int], reach: int) -> bool:
        bf = field(
            [],
            unit("a", "red", (1, 2, 0)),
            unit("t", "blue", (2, 2, 0)),
            unit("b", "red", ally_at, reach=reach),
        )
        return d20.flanking_ally(bf, bf.by_id["a"], bf.by_id["t"]) is not None

    assert flanked((4, 2, 0), 2)  # 2 cells away with reach 2: threatens (D-1)
    assert not flanked((4, 2, 0), 1)  # reach 1 does not reach
    assert not flanked((3, 2, 0), 0)  # l.104 "portata di 0 metri"


def test_every_shipped_map_reads_its_units_with_sample_sheets() -> None:
    for path in sorted((ROOT / "maps").glob("*.tmx")):
        bf, _ = parse_scenario({"ruleset": "d20", "map": str(path)}, ROOT)
        assert bf.entities, path
        assert all(d20.sheet_of(e).template is not None for e in bf.entities)


def test_map_units_get_the_sheet_of_their_template_and_keep_their_weapon_id() -> None:
    ruleset = ruleset_for("d20")
    assert ruleset.unit_fields("void_marine", "smg", None) == {
        "sheet": {"template": "void_marine", "weapon": "smg"}
    }
    assert ruleset.unit_fields(None, None, "marine_plate") == {"sheet": {"template": "human"}}
