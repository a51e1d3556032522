"""C-1/C-4 in the round: aiming, reactions (dodge, parry), acting hastily and the burst fire mode
as one unit's state between its commands (000:l.77-91, 158-170, 243-256, 343)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from game.rules.ruleset_answers import RulesRefusal

if TYPE_CHECKING:  # the sheet holds a Tempo, and the tables are read from sheets: no loop
    from game.rules.cepheus.data import Tables

#: The standing reaction choices, in the order the command cycles through them.
REACT_MODES = ("always", "after_acting", "never")
#: The reactions an attacked unit may take (000:l.164-170).
DODGE = "dodge"
PARRY = "parry"
#: Commands that do not break an aim: aiming again, declarations, ending or delaying the turn
#: (000:l.87: "finché il personaggio non fa altro che mirare").
KEEP_AIM = frozenset({"aim", "hasty", "react_stance", "fire_mode", "end_turn", "delay"})
#: The minor actions the round counts (C-4): the significant action spent on them leaves all
#: three minor actions to the turn.
MINOR_KINDS = frozenset({"aim", "reload"})


@dataclass(frozen=True)
class Tempo:
    """One unit's state within the round, kept in its sheet (saved with it)."""

    #: Minor actions spent aiming (000:l.87), at `aim_at`; lost on doing anything else.
    aim: int = 0
    aim_at: str = ""
    #: Minor actions spent aiming in the current turn, and whether it moved (C-4's budget).
    aimed_this_turn: int = 0
    moved: bool = False
    #: Reactions taken this round: -1 each to its own checks this round (000:l.160, C-4).
    reactions: int = 0
    #: Acting hastily this round (-1 to every check, 000:l.79) and declared for the next one.
    hasty: bool = False
    hasty_next: bool = False
    #: The standing choice of a unit whose player is not at the screen when it is attacked
    #: (REACT_MODES): take the best reaction it may (dodge or parry) on every attack it is
    #: aware of, only once its own turn this round is over (its -1 then falls on no check of
    #: this round), or never.
    react: str = "always"
    #: Its own turn this round has begun (reset as a round begins).
    acted: bool = False
    #: Fire mode of an automatic weapon: every attack is a burst (000:l.245).
    burst: bool = False
    #: Suppressed (000:l.319): rounds its checks still take -1 ("in questo turno e nel
    #: successivo": 2 as it is suppressed, 1 in the next round), and the highest Effect of a
    #: suppression since it last began a turn, already taken off its initiative (l.321).
    suppressed: int = 0
    suppression: int = 0
    #: Minor actions spent reloading in the current turn (000:l.99; C-4's budget, as aiming).
    reloads: int = 0
    #: The aim is aiming to kill (000:l.89-91): its minor actions go to the damage, +1 each
    #: (C-5), not to the hit; it cannot dodge meanwhile and a hit loses it.
    aim_kill: bool = False


def start_round(t: Tempo) -> Tempo:
    """A new round: the reactions' -1 is over (C-4: "this round"); a hasty declaration made
    for this round takes effect (000:l.79)."""
    if not (t.reactions or t.hasty or t.hasty_next or t.acted or t.suppressed):
        return t
    return replace(
        t,
        reactions=0,
        hasty=t.hasty_next,
        hasty_next=False,
        acted=False,
        suppressed=max(t.suppressed - 1, 0),
    )


def start_turn(t: Tempo) -> Tempo:
    """Its own turn begins: the turn's minor actions come back; it has had its chance to act,
    so a new suppression counts afresh (000:l.321)."""
    if t.acted and not (t.aimed_this_turn or t.moved or t.suppression or t.reloads):
        return t
    return replace(t, aimed_this_turn=0, moved=False, acted=True, suppression=0, reloads=0)


def next_react_mode(t: Tempo) -> Tempo:
    """The reaction stance command: always -> once acted -> never -> always."""
    return replace(t, react=REACT_MODES[(REACT_MODES.index(t.react) + 1) % len(REACT_MODES)])


def after_command(t: Tempo, kind: str) -> Tempo:
    """Anything but aiming (or a declaration) loses the aim (000:l.87); an attack spends it.
    A move spends a minor action of the turn (C-4)."""
    if kind == "move" and not t.moved:
        t = replace(t, moved=True)
    if kind in KEEP_AIM or not (t.aim or t.aim_at):
        return t
    return replace(t, aim=0, aim_at="", aim_kill=False)


def minor_left(t: Tempo, action: str | None, tables: Tables, lost: int = 0) -> int:
    """C-4: one minor action and the significant one, or three minor (`lost` fewer: seriously
    wounded, 000:l.386). Moving spent the first minor action; any significant action but
    aiming leaves no more (the dash is its two minor actions of movement)."""
    turn = tables.turn
    spent = t.aimed_this_turn + t.reloads + (1 if t.moved else 0) + lost
    if action is not None and action not in MINOR_KINDS:
        return max(turn["minor_actions"] - spent, 0)
    return max(turn["all_minor"] - spent, 0)


def aim(
    t: Tempo, target: str, action: str | None, tables: Tables, lost: int = 0, kill: bool = False
) -> Tempo:
    """One minor action aiming at `target` (000:l.87): +1 to the next attack on it, at most +6;
    aiming at another target, or the other way (`kill`: aiming to kill, l.89-91, +1 damage an
    action up to +6, C-5), starts again."""
    if minor_left(t, action, tables, lost) <= 0:
        raise RulesRefusal("no_minor_action")
    if kill:
        most, per = tables.mod("aim_to_kill_max"), tables.mod("aim_to_kill_per_action")
    else:
        most, per = tables.mod("aim_max"), tables.mod("aim_per_action")
    before = t.aim if t.aim_at == target and t.aim_kill == kill else 0
    if before >= most // per:
        raise RulesRefusal("aim_at_most", most=most)
    return replace(
        t, aim=before + 1, aim_at=target, aim_kill=kill, aimed_this_turn=t.aimed_this_turn + 1
    )


def aiming_to_kill(t: Tempo) -> bool:
    """000:l.91: "Non può schivare ... mentre sta mirando" (to kill)."""
    return t.aim_kill and t.aim > 0


def hit_while_aiming(t: Tempo) -> Tempo:
    """000:l.91: "Perde inoltre il suo bonus di Mira se è colpito": an aim to kill is lost."""
    return replace(t, aim=0, aim_at="", aim_kill=False) if aiming_to_kill(t) else t


def aim_spends_action(t: Tempo, tables: Tables, lost: int = 0) -> bool:
    """After an aim (or a reload), the turn's minor actions reach into the significant action
    (C-4)."""
    spent = t.aimed_this_turn + t.reloads + (1 if t.moved else 0) + lost
    return spent > tables.turn["minor_actions"]


def reload_minor(t: Tempo, action: str | None, tables: Tables, lost: int = 0) -> Tempo:
    """000:l.99: reloading is a minor action ("un'altra azione minore per essere ricaricata"),
    counted with the turn's others (C-4) as an aim is."""
    if minor_left(t, action, tables, lost) <= 0:
        raise RulesRefusal("no_minor_action")
    return replace(t, reloads=t.reloads + 1)


def declare_hasty(t: Tempo) -> Tempo:
    """000:l.79: +2 initiative and -1 to every action, for the next round; once a round."""
    if t.hasty_next:
        raise RulesRefusal("already_hasty")
    return replace(t, hasty_next=True)


def choose_reaction(
    t: Tempo,
    *,
    aware: bool,
    prone: bool,
    melee: bool,
    in_cover: bool,
    mischia: int,
    able: bool,
    tables: Tables,
) -> str | None:
    """The reaction a unit takes to an attack (000:l.158-170, 343): only when its standing
    choice says so, it is aware of the attack (it sees the attacker) and able to react; dodge
    -1 (-2 in cover), not when prone; parry -Mischia, melee only; the better of the two (a
    tie: dodge), none when neither takes anything off."""
    willing = t.react == "always" or (t.react == "after_acting" and t.acted)
    if not (willing and aware and able):
        return None
    dodge = 0 if prone else -(tables.mod("dodge_in_cover") if in_cover else tables.mod("dodge"))
    parry = mischia if melee else 0
    if max(dodge, parry) <= 0:
        return None
    return DODGE if dodge >= parry else PARRY


def reacted(t: Tempo) -> Tempo:
    """Each reaction: -1 to its own checks this round (000:l.160); a reaction is doing
    something else than aiming (000:l.87)."""
    return replace(t, reactions=t.reactions + 1, aim=0, aim_at="", aim_kill=False)


#: The rounds a suppression's -1 lasts: the round it comes in and the next (000:l.319).
SUPPRESSED_ROUNDS = 2


def suppress(t: Tempo, effect: int) -> tuple[Tempo, int]:
    """000:l.319-321: a successful suppression freezes the target's next action, its initiative
    down by the attack's Effect, and -1 to its checks this round and the next. Suppressed again
    before it has had its chance to act, the highest Effect takes precedence: only what it adds
    to the Effect already taken comes off. Answers the sheet's tempo and the initiative change
    (0 or less)."""
    if effect < 0:
        raise ValueError(f"a suppression succeeds with an Effect of 0 or more, not {effect}")
    change = -max(effect - t.suppression, 0)
    after = replace(
        t,
        suppressed=SUPPRESSED_ROUNDS,
        suppression=max(effect, t.suppression),
        aim=0,
        aim_at="",
        aim_kill=False,
    )
    return after, change
