"""Scenario tests of the battle's commands: what is tested, the commands, the expected end state.

Numbers are worked by hand from seed 001 and RULINGS.md. Dice are entered as the GM would
(P-CHK-4) so every roll is known: `initiative=(a, b)` are the opening d20s in listing order.
"""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.battle.view import view_for
from game.ecs.components import Position, Waiting

ADA = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
BO = UnitSpec("bo", "blue", (9, 3, 0))


def kinds(outcome: object) -> list[str]:
    return [e.kind for e in outcome.events]  # type: ignore[attr-defined]


def event(outcome: object, kind: str) -> dict[str, object]:
    return next(dict(e.data) for e in outcome.events if e.kind == kind)  # type: ignore[attr-defined]


def test_p_hit_2_pistol_shot_in_the_open_is_80_percent_and_a_roll_of_80_hits_for_a_grave_wound(
    make_battle,
) -> None:
    # P = 70 x (100 + 0 - 0 - (-15)) / 100 = 80.5 -> 80 (P-HIT-2; bo highly exposed, P-COV-4).
    # d100 = 80 <= 80 hits (P-HIT-1); 2d6 = 3 + 4 = 7 perforante, no armour, R_def 0 (P-DMG-1);
    # the human table reads 6-9 as a grave wound (P-VUL-1).
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.active == "ada"
    assert b.apply(cmd.EnterRoll((80, 3, 4)), GM).accepted
    outcome = b.apply(cmd.Attack("ada", "bo"), "red")
    shot = event(outcome, "attack")
    assert (shot["hit_chance"], shot["hit"], shot["cover"]) == (80, True, "high_exposure")
    hurt = event(outcome, "damage")
    assert (hurt["rolled"], hurt["damage"], hurt["effects"]) == (7, 7, ["grave_wound"])
    assert b.sheet("bo").health.grave == 1


def test_p_hit_1_a_roll_one_above_the_chance_misses_and_does_no_damage(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    b.apply(cmd.EnterRoll((81,)), GM)
    outcome = b.apply(cmd.Attack("ada", "bo"), "red")
    assert event(outcome, "attack")["hit"] is False
    assert "damage" not in kinds(outcome)
    assert b.sheet("bo").health.grave == 0


def test_p_turn_1_a_second_attack_in_the_same_turn_is_refused_and_rolls_nothing(
    make_battle,
) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    b.apply(cmd.EnterRoll((99,)), GM)
    assert b.apply(cmd.Attack("ada", "bo"), "red").accepted
    before = b.state_hash()
    again = b.apply(cmd.Attack("ada", "bo"), "red")
    assert again.refusal is not None and again.refusal.code == "action_used"
    assert b.state_hash() == before


def test_p_mov_5_ten_cells_are_out_of_reach_walking_and_within_reach_after_a_dash(
    make_battle,
) -> None:
    # Human walk speed 5 (P-MOV-2); Dash doubles it to 10 (P-MOV-5); (1,3)->(11,3) is 10 cells.
    far_bo = UnitSpec("bo", "blue", (9, 10, 0))  # out of the way: no reaction area on the path
    b: Battle = make_battle([ADA, far_bo], initiative=(15, 5))
    refused = b.apply(cmd.Move("ada", (11, 3, 0)), "red")
    assert refused.refusal is not None and refused.refusal.code == "unreachable"
    assert b.apply(cmd.Dash("ada"), "red").accepted
    moved = b.apply(cmd.Move("ada", (11, 3, 0)), "red")
    assert event(moved, "moved")["cost"] == 10
    assert b.sheet("ada").cell == (11, 3, 0)


def test_p_turn_1_movement_split_around_an_action_spends_from_one_budget(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.Move("ada", (3, 3, 0)), "red").accepted  # 2 of 5
    b.apply(cmd.EnterRoll((99,)), GM)
    assert b.apply(cmd.Attack("ada", "bo"), "red").accepted
    assert b.apply(cmd.Move("ada", (6, 3, 0)), "red").accepted  # 3 more: 5 of 5
    last = b.apply(cmd.Move("ada", (6, 4, 0)), "red")
    assert last.refusal is not None and last.refusal.code == "unreachable"


def test_p_turn_2_changing_stance_costs_the_interaction_so_a_second_change_is_refused(
    make_battle,
) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.ChangeStance("ada", "prone"), "red").accepted
    again = b.apply(cmd.ChangeStance("ada", "standing"), "red")
    assert again.refusal is not None and again.refusal.code == "interaction_used"
    assert b.sheet("ada").stance.value == "prone"


def test_p_oa_1_leaving_a_reaction_area_offers_an_attack_and_a_grave_wound_ends_the_turn(
    make_battle,
) -> None:
    # bo at (6,5) steps away from ada's knife at (5,5): the move stops in (6,5) and ada may react.
    # P = 85 x 115 / 100 = 97.75 -> 97 (combat knife, bo highly exposed); d100 97 hits;
    # 1d6+1 = 6 + 1 = 7 taglio -> grave wound (6-9), which ends bo's turn at once (P-OA-1).
    ada = UnitSpec("ada", "red", (5, 5, 0), weapon="combat_knife")
    bo = UnitSpec("bo", "blue", (6, 5, 0))
    b: Battle = make_battle([ada, bo], initiative=(5, 15))
    assert b.active == "bo"
    stopped = b.apply(cmd.Move("bo", (9, 5, 0)), "blue")
    offer = event(stopped, "reaction_offered")
    assert (offer["unit"], offer["kind"]) == ("ada", "opportunity")
    refused = b.apply(cmd.EndTurn("bo"), "blue")
    assert refused.refusal is not None and refused.refusal.code == "reaction_pending"
    b.apply(cmd.EnterRoll((97, 6)), GM)
    taken = b.apply(cmd.React("ada", take=True), "red")
    attack = event(taken, "reaction_attack")
    assert (attack["hit_chance"], attack["hit"]) == (97, True)
    assert "turn_cut_short" in kinds(taken)
    assert b.sheet("bo").cell == (6, 5, 0) and b.sheet("bo").health.grave == 1
    assert b.active == "ada"


def test_p_oa_1_a_declined_reaction_lets_the_move_go_on_to_its_end(make_battle) -> None:
    ada = UnitSpec("ada", "red", (5, 5, 0), weapon="combat_knife")
    bo = UnitSpec("bo", "blue", (6, 5, 0))
    b: Battle = make_battle([ada, bo], initiative=(5, 15))
    b.apply(cmd.Move("bo", (9, 5, 0)), "blue")
    assert b.apply(cmd.React("ada", take=False), "red").accepted
    assert b.sheet("bo").cell == (9, 5, 0)
    assert b.active == "bo"


def test_p_oa_1_disengage_moves_out_of_the_reaction_area_without_an_offer(make_battle) -> None:
    ada = UnitSpec("ada", "red", (5, 5, 0), weapon="combat_knife")
    bo = UnitSpec("bo", "blue", (6, 5, 0))
    b: Battle = make_battle([ada, bo], initiative=(5, 15))
    assert b.apply(cmd.Disengage("bo"), "blue").accepted
    moved = b.apply(cmd.Move("bo", (9, 5, 0)), "blue")
    assert "reaction_offered" not in kinds(moved)
    assert b.sheet("bo").cell == (9, 5, 0)


def test_p_oa_2_a_readied_shooter_is_offered_its_reaction_at_the_first_cell_entered_in_sight(
    make_battle,
) -> None:
    ada = UnitSpec("ada", "red", (1, 1, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (10, 10, 0))
    b: Battle = make_battle([ada, bo], initiative=(15, 5))
    assert b.apply(cmd.Ready("ada"), "red").accepted
    assert b.apply(cmd.EndTurn("ada"), "red").accepted
    stopped = b.apply(cmd.Move("bo", (10, 7, 0)), "blue")
    offer = event(stopped, "reaction_offered")
    assert (offer["kind"], offer["at"]) == ("readied", [10, 9, 0])
    assert b.apply(cmd.React("ada", take=False), "red").accepted
    assert b.sheet("bo").cell == (10, 7, 0)


def test_p_heal_1_a_medkit_heals_a_light_wound_without_a_roll_and_is_spent(make_battle) -> None:
    # 2d6 = 1 + 1 = 2 perforante: 1-5 on the human table, a light wound (P-VUL-1).
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    b.apply(cmd.EnterRoll((1, 1, 1)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    assert b.sheet("bo").health.light == 1
    b.apply(cmd.EndTurn("ada"), "red")
    healed = b.apply(cmd.UseObject("bo", "bo", "light"), "blue")
    assert event(healed, "medkit")["result"] == "healed"
    assert healed.rolls == ()
    assert b.sheet("bo").health.light == 0
    again = b.apply(cmd.UseObject("bo", "bo", "light"), "blue")
    assert again.refusal is not None


def test_p_vul_3_burning_deals_1d8_ustione_at_the_start_of_the_turn_and_ends_with_it(
    make_battle,
) -> None:
    # The GM sets bo on fire; at the start of bo's turn 1d8 = 6 ustione: 6-9, a grave wound.
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.SetCondition("bo", add=("burning",)), GM).accepted
    b.apply(cmd.EnterRoll((6,)), GM)
    started = b.apply(cmd.EndTurn("ada"), "red")
    burn = event(started, "damage")
    assert (burn["source"], burn["rolled"], burn["effects"]) == ("burning", 6, ["grave_wound"])
    assert b.sheet("bo").health.grave == 1
    b.apply(cmd.EndTurn("bo"), "blue")
    assert not b.sheet("bo").health.has("burning")


def test_p_init_5_a_unit_the_gm_marks_surprised_skips_its_first_turn(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.MarkSurprised("bo"), GM).accepted
    ended = b.apply(cmd.EndTurn("ada"), "red")
    assert ("bo", "turn_skipped") in [(e.data.get("unit"), e.kind) for e in ended.events]
    assert b.active == "ada" and b.round == 2


def test_p_init_6_a_reinforcement_arrives_at_the_start_of_its_round_and_acts_in_it(
    make_battle,
) -> None:
    cy = UnitSpec("cy", "blue", (15, 5, 0), arrives_round=2)
    b: Battle = make_battle([ADA, BO, cy], initiative=(15, 5))
    assert b.world.has("cy", Waiting) and not b.on_map("cy")
    b.apply(cmd.EnterRoll((20,)), GM)  # cy's initiative when it arrives: 20, first in round 2
    b.apply(cmd.EndTurn("ada"), "red")
    arrived = b.apply(cmd.EndTurn("bo"), "blue")
    assert "arrived" in kinds(arrived)
    assert b.world.get("cy", Position).cell == (15, 5, 0)
    assert (b.round, b.active) == (2, "cy")


def test_p_init_4_a_hidden_unit_is_not_in_the_enemy_view_and_cannot_be_targeted_by_name(
    make_battle,
) -> None:
    hidden_bo = UnitSpec("bo", "blue", (9, 3, 0), hidden=True)
    b: Battle = make_battle([ADA, hidden_bo], initiative=(15, 5))
    red_view = view_for(b, "red")
    assert "bo" not in red_view.unit_ids()
    assert "bo" not in [u for u, _t in red_view.order]
    assert "bo" in view_for(b, GM).unit_ids()
    refused = b.apply(cmd.Attack("ada", "bo"), "red")
    assert refused.refusal is not None and refused.refusal.code == "unknown_target"


def test_p_stl_1_a_hidden_unit_ending_its_turn_in_the_open_in_enemy_sight_is_revealed(
    make_battle,
) -> None:
    hidden_bo = UnitSpec("bo", "blue", (9, 3, 0), hidden=True)
    b: Battle = make_battle([ADA, hidden_bo], initiative=(5, 15))
    assert b.active == "bo"
    ended = b.apply(cmd.EndTurn("bo"), "blue")
    assert "revealed" in kinds(ended)
    assert "bo" in view_for(b, "red").unit_ids()


def test_fog_a_unit_behind_a_wall_is_unseen_until_it_steps_out_and_is_then_sighted(
    make_battle,
) -> None:
    picture = """
    ..........
    ..........
    .....#....
    .....#....
    .....#....
    ..........
    """
    ada = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (8, 3, 0))
    b: Battle = make_battle([ada, bo], picture=picture, initiative=(5, 15))
    assert not b.sees("red", "bo")
    stepped = b.apply(cmd.Move("bo", (8, 0, 0)), "blue")
    sighted = [e for e in stepped.events if e.kind == "sighted" and e.data["faction"] == "red"]
    assert sighted and b.sees("red", "bo")
    assert view_for(b, "red").seen[8, 0, 0]


def test_commands_are_refused_to_players_who_do_not_command_the_unit_or_the_gm_role(
    make_battle,
) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    for command, by, code in (
        (cmd.Move("ada", (2, 3, 0)), "blue", "not_your_unit"),
        (cmd.Move("bo", (8, 3, 0)), "blue", "not_active"),
        (cmd.EnterRoll((3,)), "red", "gm_only"),
        (cmd.Move("zed", (2, 3, 0)), "red", "unknown_unit"),
    ):
        outcome = b.apply(command, by)
        assert outcome.refusal is not None and outcome.refusal.code == code, command


def test_commands_round_trip_through_their_json_form() -> None:
    samples = [
        cmd.Move("ada", (3, 4, 0), via=((2, 2, 0),), mode="crawl", stealth=True),
        cmd.Attack("ada", target="bo"),
        cmd.Throw("ada", at=(4, 4, 0), size="light"),
        cmd.React("ada", take=False),
        cmd.EditCell((1, 1, 0), obstacle="half", terrain=("rough",), floor=True),
        cmd.OrderTie(("ada", "bo")),
        cmd.EnterRoll((20, 1)),
        cmd.RestartInitiative(),
    ]
    for command in samples:
        assert cmd.parse_command(command.to_json()) == command


def test_a_malformed_command_names_the_field_that_is_wrong() -> None:
    for data, message in (
        ({"cmd": "move", "unit": "ada"}, "command.to: missing"),
        ({"cmd": "move", "unit": "ada", "to": [1, 2]}, "command.to: expected a cell"),
        ({"cmd": "teleport"}, "command.cmd: unknown command 'teleport'"),
        ({"cmd": "react", "unit": "ada", "take": "yes"}, "command.take: expected true or false"),
    ):
        try:
            cmd.parse_command(data)
        except cmd.CommandError as exc:
            assert str(exc).startswith(message), str(exc)
        else:
            raise AssertionError(f"{data} was accepted")


def test_p_thr_2_a_missed_long_throw_at_a_cell_lands_one_cell_per_ten_over_away_from_the_thrower(
    make_battle,
) -> None:
    # A light object to a cell 7 away: long range (4/9), P = 60 x (100 + 0) / 100 = 60 (P-THR-1).
    # d100 85 misses by 25: 1 + 25 // 10 = 3 cells; d4 = 1 is away from the thrower (+x): (11,3).
    b: Battle = make_battle([ADA, UnitSpec("bo", "blue", (9, 9, 0))], initiative=(15, 5))
    b.apply(cmd.EnterRoll((85, 1)), GM)
    thrown = event(b.apply(cmd.Throw("ada", at=(8, 3, 0), size="light"), "red"), "throw")
    assert (thrown["hit_chance"], thrown["hit"], thrown["landed"]) == (60, False, [11, 3, 0])


def test_p_area_1_a_frag_grenade_within_medium_range_lands_and_hurts_everyone_within_one_cell(
    make_battle,
) -> None:
    # (1,3) -> (5,3) is 4 cells: medium range for a light object, automatic (P-THR-1). The blast
    # covers every cell within 1 (frag_grenade's pattern): bo at (6,3) is in it, cy at (9,3) not.
    # One 2d6 = 2 + 3 = 5 perforante for all: 1-5 on the human table, a light wound.
    grenadier = UnitSpec("ada", "red", (1, 3, 0), weapon="frag_grenade")
    bo = UnitSpec("bo", "blue", (6, 3, 0))
    cy = UnitSpec("cy", "blue", (9, 3, 0))
    b: Battle = make_battle([grenadier, bo, cy], initiative=(15, 5, 4))
    b.apply(cmd.EnterRoll((2, 3)), GM)
    outcome = b.apply(cmd.Throw("ada", at=(5, 3, 0)), "red")
    assert event(outcome, "throw")["landed"] == [5, 3, 0]
    assert [e.data["unit"] for e in outcome.events if e.kind == "damage"] == ["bo"]
    assert b.sheet("bo").health.light == 1 and b.sheet("cy").health.light == 0


def test_p_chk_2_help_gives_advantage_keeping_the_lower_d100_and_dodge_cancels_it(
    make_battle,
) -> None:
    # P = 80 as in the first test. Helped: d100 90 and 20, keep 20: a hit. Against a dodging
    # target the same help is cancelled (P-CHK-2): one die, 90, a miss.
    cy = UnitSpec("cy", "red", (1, 4, 0))
    b: Battle = make_battle([ADA, BO, cy], initiative=(10, 5, 15))
    assert b.apply(cmd.Help("cy", "ada"), "red").accepted
    b.apply(cmd.EndTurn("cy"), "red")
    b.apply(cmd.EnterRoll((90, 20, 1, 1)), GM)
    helped = event(b.apply(cmd.Attack("ada", "bo"), "red"), "attack")
    assert helped["hit"] is True
    b.apply(cmd.EndTurn("ada"), "red")
    assert b.apply(cmd.Dodge("bo"), "blue").accepted
    b.apply(cmd.EndTurn("bo"), "blue")
    assert b.apply(cmd.Help("cy", "ada"), "red").accepted
    b.apply(cmd.EndTurn("cy"), "red")
    b.apply(cmd.EnterRoll((90,)), GM)
    cancelled = b.apply(cmd.Attack("ada", "bo"), "red")
    assert event(cancelled, "attack")["hit"] is False
    assert len(cancelled.rolls[0].dice) == 1


def test_hide_behind_a_wall_then_a_search_in_sight_finds_the_hidden_unit(make_battle) -> None:
    # ada hides out of bo's sight: d20 12 + 0 meets bo's passive perception 10 (P-CHK-3).
    # bo steps round the wall; it does not see ada (hidden), searches: d20 15 >= 12, found.
    picture = """
    ..........
    ..........
    ....#.....
    ....#.....
    ....#.....
    ..........
    """
    ada = UnitSpec("ada", "red", (3, 3, 0))
    bo = UnitSpec("bo", "blue", (7, 3, 0))
    b: Battle = make_battle([ada, bo], picture=picture, initiative=(15, 5))
    b.apply(cmd.EnterRoll((12,)), GM)
    hidden = b.apply(cmd.Hide("ada"), "red")
    assert event(hidden, "hide")["success"] is True
    b.apply(cmd.EndTurn("ada"), "red")
    assert b.apply(cmd.Move("bo", (3, 0, 0)), "blue").accepted
    assert not b.sees("blue", "ada")
    b.apply(cmd.EnterRoll((15,)), GM)
    found = b.apply(cmd.Search("bo"), "blue")
    assert event(found, "search")["found"] == 1
    assert b.sees("blue", "ada")


def test_an_improvised_action_waits_for_the_gm_who_resolves_it_with_a_check(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.Improvise("ada", "kick the crate onto bo"), "red").accepted
    assert b.improvising == [("ada", "kick the crate onto bo")]
    b.apply(cmd.EnterRoll((11,)), GM)
    ruled = b.apply(
        cmd.RuleImprovise("ada", "check", check="gravità muscolare (atletica)", dc=12), GM
    )
    result = event(ruled, "improvise_ruled")
    assert (result["verdict"], result["success"], result["by"]) == ("check", False, "gm")
    assert b.improvising == []


def test_the_gm_edits_a_cell_into_a_wall_and_sight_through_it_is_gone(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.sees("red", "bo")
    assert b.apply(cmd.EditCell((5, 3, 0), obstacle="full"), GM).accepted
    refused = b.apply(cmd.Attack("ada", "bo"), "red")
    assert refused.refusal is not None and refused.refusal.code in ("no_los", "unknown_target")
    occupied = b.apply(cmd.EditCell((9, 3, 0), obstacle="full"), GM)
    assert occupied.refusal is not None and occupied.refusal.code == "cell_occupied"


def test_p_init_7_a_unit_outside_the_combat_rolls_when_first_seen_and_acts_this_round_if_after(
    make_battle,
) -> None:
    # dex stands behind a wall, outside the combat: not in the order. bo steps into its sight;
    # dex rolls at once (GM die 2: total 2, after bo's 5) and so acts in this very round.
    picture = """
    ..........
    ..........
    .....#....
    .....#....
    .....#....
    ..........
    """
    ada = UnitSpec("ada", "red", (1, 3, 0))
    bo = UnitSpec("bo", "blue", (3, 3, 0))
    dex = UnitSpec("dex", "green", (8, 3, 0), outside_combat=True)
    b: Battle = make_battle([ada, bo, dex], picture=picture, initiative=(15, 5))
    assert b.initiative.entry("dex") is None
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EnterRoll((2,)), GM)
    seen = b.apply(cmd.Move("bo", (5, 0, 0)), "blue")
    assert "discovered" in kinds(seen)
    entry = b.initiative.entry("dex")
    assert entry is not None and entry.total == 2
    b.apply(cmd.EndTurn("bo"), "blue")
    assert (b.round, b.active) == (1, "dex")


def test_p_vul_3_a_shocked_unit_skips_its_next_turn_and_the_shock_ends_with_it(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.SetCondition("bo", add=("shock",)), GM).accepted
    skipped = b.apply(cmd.EndTurn("ada"), "red")
    assert event(skipped, "turn_skipped") == {"unit": "bo", "because": "shock"}
    assert not b.sheet("bo").health.has("shock")
    assert (b.round, b.active) == (2, "ada")


def test_p_init_2_the_gm_orders_a_tie_across_sides_before_the_first_unit_acts(make_battle) -> None:
    # Both roll 10 with bonus 0: the headless default puts ada (listed first) ahead. The GM
    # decides bo goes first; ada's untouched turn passes to bo.
    b: Battle = make_battle([ADA, BO], initiative=(10, 10))
    assert b.active == "ada"
    refused = b.apply(cmd.OrderTie(("bo", "ada")), "blue")
    assert refused.refusal is not None and refused.refusal.code == "tie_not_yours"
    assert b.apply(cmd.OrderTie(("bo", "ada")), GM).accepted
    assert b.active == "bo"
    b.apply(cmd.EndTurn("bo"), "blue")
    assert (b.round, b.active) == (1, "ada")


def test_p_init_2_a_side_orders_its_own_tie_but_not_once_the_turn_has_begun(make_battle) -> None:
    cy = UnitSpec("cy", "red", (1, 5, 0))
    b: Battle = make_battle([ADA, cy, BO], initiative=(10, 10, 5))
    assert b.active == "ada"
    assert b.apply(cmd.Move("ada", (2, 3, 0)), "red").accepted
    late = b.apply(cmd.OrderTie(("cy", "ada")), "red")
    assert late.refusal is not None and late.refusal.code == "turn_begun"
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EndTurn("cy"), "red")
    b.apply(cmd.EndTurn("bo"), "blue")
    # round 2, ada active again and untouched: red may now put cy first
    assert b.apply(cmd.OrderTie(("cy", "ada")), "red").accepted
    assert b.active == "cy"


def test_the_gm_reveals_and_conceals_a_unit_for_chosen_sides(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.sees("red", "bo")
    assert b.apply(cmd.Conceal("bo"), GM).accepted
    assert not b.sees("red", "bo")
    assert b.apply(cmd.Reveal("bo", ("red",)), GM).accepted
    assert b.sees("red", "bo")


def test_p_init_6_the_gm_calls_a_waiting_reinforcement_in_for_next_round_at_a_chosen_cell(
    make_battle,
) -> None:
    cy = UnitSpec("cy", "blue", (15, 5, 0), arrives_round=5)
    b: Battle = make_battle([ADA, BO, cy], initiative=(15, 5))
    assert b.apply(cmd.PlaceReinforcement("cy", (12, 8, 0)), GM).accepted
    b.apply(cmd.EnterRoll((1,)), GM)
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EndTurn("bo"), "blue")
    assert b.world.get("cy", Position).cell == (12, 8, 0)
    assert b.round == 2 and b.initiative.entry("cy") is not None


def test_p_init_3_the_gm_restarts_the_initiative_and_a_new_round_begins_in_the_new_order(
    make_battle,
) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    b.apply(cmd.EnterRoll((2, 19)), GM)
    restarted = b.apply(cmd.RestartInitiative(), GM)
    assert "initiative_restarted" in kinds(restarted)
    assert (b.round, b.active) == (2, "bo")


def test_the_gm_ends_the_combat_and_nothing_more_is_accepted(make_battle) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.EndCombat(), GM).accepted
    assert b.over and b.winner is None
    late = b.apply(cmd.EndTurn("ada"), "red")
    assert late.refusal is not None and late.refusal.code == "combat_over"


def test_the_gm_hands_a_side_to_the_computer_and_its_player_can_no_longer_command_it(
    make_battle,
) -> None:
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    assert b.apply(cmd.SetController("red", "computer"), GM).accepted
    assert b.controller_of("red") == "computer"
    refused = b.apply(cmd.EndTurn("ada"), "red")
    assert refused.refusal is not None and refused.refusal.code == "not_your_unit"


def test_p_stl_1_a_stealthy_move_in_the_open_rolls_once_per_enemy_and_a_failure_reveals(
    make_battle,
) -> None:
    # Stealth halves walking to floor(5 / 2) = 2 cells (P-STL-1, P-MOV-7). In the open field bo
    # sees ada at once: one precisione (furtività) roll against bo's passive perception 10
    # (P-CHK-3) for the whole move: 9 fails and reveals ada to blue; 10 would have held.
    for face, revealed in ((9, True), (10, False)):
        hidden_ada = UnitSpec("ada", "red", (1, 5, 0), hidden=True)
        bo = UnitSpec("bo", "blue", (10, 5, 0))
        b: Battle = make_battle([hidden_ada, bo], initiative=(15, 5))
        too_far = b.apply(cmd.Move("ada", (4, 5, 0), stealth=True), "red")
        assert too_far.refusal is not None and too_far.refusal.code == "unreachable"
        b.apply(cmd.EnterRoll((face,)), GM)
        moved = b.apply(cmd.Move("ada", (3, 5, 0), stealth=True), "red")
        checks = [e for e in moved.events if e.kind == "stealth_check"]
        assert len(checks) == 1 and checks[0].data["against"] == "bo"
        assert b.sees("blue", "ada") is revealed


def test_p_death_1_a_second_grave_wound_is_mortal_and_the_death_save_comes_at_the_turn_start(
    make_battle,
) -> None:
    # Round 1: d100 10 hits, 2d6 = 7 -> grave wound. Round 2: d100 10 hits, 2d6 = 6, read at
    # 6 + 2 (one grave wound, P-VUL-1) = 8 -> grave wound; two grave make a mortal (P-VUL-2).
    # At bo's next turn start: d20 = 15 >= 10, one success (P-DEATH-1).
    b: Battle = make_battle([ADA, BO], initiative=(15, 5))
    b.apply(cmd.EnterRoll((10, 3, 4)), GM)
    b.apply(cmd.Attack("ada", "bo"), "red")
    b.apply(cmd.EndTurn("ada"), "red")
    b.apply(cmd.EndTurn("bo"), "blue")
    b.apply(cmd.EnterRoll((10, 3, 3, 15)), GM)
    second = b.apply(cmd.Attack("ada", "bo"), "red")
    assert event(second, "damage")["effects"] == ["grave_wound"]
    assert b.sheet("bo").health.mortal == 1
    started = b.apply(cmd.EndTurn("ada"), "red")
    save = event(started, "death_save")
    assert save["result"] == "success" and b.sheet("bo").health.death_successes == 1
    stuck = b.apply(cmd.Move("bo", (9, 4, 0)), "blue")
    assert stuck.refusal is not None  # P-MOV-6: a mortal wound stops all movement


def test_a_path_does_not_bend_round_a_hidden_enemy_walking_into_it_is_an_ambush(
    make_battle,
) -> None:
    # A corridor: the only way east passes (5, 1), where bo hides. ada plans as if the cell were
    # free, walks into bo's cell, stops before it at (4, 1), and now sees bo.
    picture = """
    #########
    .........
    #########
    """
    ada = UnitSpec("ada", "red", (2, 1, 0))
    bo = UnitSpec("bo", "blue", (5, 1, 0), hidden=True)
    b: Battle = make_battle([ada, bo], picture=picture, initiative=(15, 5))
    assert not b.sees("red", "bo")
    outcome = b.apply(cmd.Move("ada", (7, 1, 0)), "red")
    assert outcome.accepted
    assert event(outcome, "ambushed") == {"unit": "ada", "by": "bo", "at": [4, 1, 0]}
    assert b.sheet("ada").cell == (4, 1, 0)
    assert b.sees("red", "bo")


def test_p_vul_3_an_incendiary_grenade_sets_alight_whoever_its_blast_reaches(make_battle) -> None:
    # Automatic at 4 cells (P-THR-1); 1d8 = 3 ustione -> light wound (1-5), and on_hit burning.
    # At bo's turn start the fire deals 1d8 = 2 more: read at 2 + 1 (one light wound) = 3, a
    # second light wound; the fire goes out at the end of bo's turn (P-VUL-3).
    grenadier = UnitSpec("ada", "red", (1, 3, 0), weapon="incendiary_grenade")
    bo = UnitSpec("bo", "blue", (6, 3, 0))
    b: Battle = make_battle([grenadier, bo], initiative=(15, 5))
    b.apply(cmd.EnterRoll((3,)), GM)
    thrown = b.apply(cmd.Throw("ada", at=(5, 3, 0)), "red")
    assert event(thrown, "damage")["effects"] == ["light_wound", "burning"]
    assert b.sheet("bo").health.has("burning")
    b.apply(cmd.EnterRoll((2,)), GM)
    started = b.apply(cmd.EndTurn("ada"), "red")
    assert event(started, "damage")["source"] == "burning"
    assert b.sheet("bo").health.light == 2
    b.apply(cmd.EndTurn("bo"), "blue")
    assert not b.sheet("bo").health.has("burning")
