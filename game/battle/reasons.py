"""The battle's vocabulary: why a command is refused, and what kinds of thing happen.

Codes, not sentences: game/text/explain.py words them through gettext, once, for the log, the window
and `tessera run`'s output. A code outside these enums is a bug the engine stops at once.
"""

from __future__ import annotations

from enum import StrEnum


class Why(StrEnum):
    """Why the battle refuses a command; nothing changed and no die was rolled."""

    # who may act
    GM_ONLY = "gm_only"
    NOT_YOUR_UNIT = "not_your_unit"
    NOT_ACTIVE = "not_active"
    UNKNOWN_UNIT = "unknown_unit"
    COMBAT_OVER = "combat_over"
    REACTION_PENDING = "reaction_pending"
    NO_REACTION_OFFERED = "no_reaction_offered"
    TIE_NOT_YOURS = "tie_not_yours"
    # the turn's budget (P-TURN-1, P-TURN-2)
    ACTION_USED = "action_used"
    INTERACTION_USED = "interaction_used"
    SAME_STANCE = "same_stance"
    UNKNOWN_STANCE = "unknown_stance"
    TURN_BEGUN = "turn_begun"
    #: The command does not exist under the battle's ruleset (its turn budget lists it not).
    NOT_IN_RULESET = "not_in_ruleset"
    # movement
    OUTSIDE_MAP = "outside_map"
    UNREACHABLE = "unreachable"
    CANNOT_MOVE = "cannot_move"
    IN_FLIGHT = "in_flight"  # a jump not yet landed, and no thrusters to steer (P-ZERO-1)
    DAMPERS_NEED_THRUSTERS = "dampers_need_thrusters"  # only thrusters have dampers (P-ZERO-2)
    NO_LANDING = "no_landing"  # nobody can stand or hang there (G-3)
    JUMP_LANDS_LOWER = "jump_lands_lower"  # a jump lands no lower than it starts: drop instead
    JUMP_BLOCKED = "jump_blocked"  # no clear flight at any apex (P-JUMP-1)
    JUMP_TOO_HIGH = "jump_too_high"  # the apex it needs costs more than the points left
    DROP_TOO_DEEP = "drop_too_deep"  # the drop costs more than the jump points left
    # two in one cell (P-MOV-8)
    NOT_SHARING_A_CELL = "not_sharing_a_cell"
    CANNOT_STEP_ASIDE = "cannot_step_aside"  # a failed save, or stunned
    NOT_FREE_AROUND = "not_free_around"  # not a free cell among the 8 around
    # the d20 5-foot step (D-2)
    ALREADY_MOVED = "already_moved"  # a 5-foot step only when not otherwise moving
    STEPPED = "stepped"  # after a 5-foot step, no other movement this turn
    NOT_ONE_STEP = "not_one_step"  # one cell, on plain ground, at full speed (not prone)
    ONE_ACTION = "one_action"  # a disabled d20 creature: a move or a standard action (D-2)
    # the d20 coup de grâce, a full-round action (004:l.114)
    MOVED_NO_FULL_ROUND = "moved_no_full_round"  # moved this turn (a 5-foot step aside)
    FULL_ROUND_TAKEN = "full_round_taken"  # no move after a full-round action
    # attacks and throws (the first eight are the rules' NoChance)
    SELF_TARGET = "self_target"
    NO_WEAPON = "no_weapon"
    BLINDED = "blinded"
    OUT_OF_COMBAT = "out_of_combat"
    DEAD = "dead"
    NO_LOS = "no_los"
    OUT_OF_REACH = "out_of_reach"
    OUT_OF_RANGE = "out_of_range"
    # Cepheus's own (C-2, C-3, 000:l.343, C-5)
    OUT_OF_BAND = "out_of_band"
    CANNOT_BE_HIT = "cannot_be_hit"
    PRONE_NO_MELEE = "prone_no_melee"
    UNCONSCIOUS = "unconscious"
    # Cepheus's round (C-1, C-4: aim, hasty, the fire mode)
    NO_MINOR_ACTION = "no_minor_action"
    AIM_AT_MOST = "aim_at_most"
    ALREADY_HASTY = "already_hasty"
    NO_AUTO_FIRE = "no_auto_fire"
    NEEDS_FIREARM = "needs_firearm"  # suppression fire (000:l.317)
    OUT_OF_AMMO = "out_of_ammo"  # fewer rounds in the magazine than the attack fires (000:l.99)
    # throws and areas at a cell (issue 15): none in the ruleset's seed; Cepheus needs a thrown
    # weapon (000:l.351)
    NOT_OFFERED = "not_offered"
    NO_THROWN_WEAPON = "no_thrown_weapon"
    UNKNOWN_TARGET = "unknown_target"
    NO_TARGET = "no_target"
    NEEDS_TARGET = "needs_target"
    #: an area attack at a cell under a ruleset that has none (Myst, fantasy, d20): its `ruleset`
    AREA_NOT_OFFERED = "area_not_offered"
    UNKNOWN_SIZE = "unknown_size"
    NEEDS_RANGED_WEAPON = "needs_ranged_weapon"
    UNKNOWN_TRIGGER = "unknown_trigger"
    ENGAGED = "engaged"  # a ranged attack from a fighter engaged in melee (fantasy, 003:l.61)
    RELOADING = "reloading"  # a CAD weapon still being reloaded (fantasy, 003:l.140)
    #: a ruleset's own reason for an attack without a chance, carried as `reason` (e.g. d20's
    #: "cannot_attack_prone", 004:l.23): the battle has no code of its own for it
    NO_CHANCE = "no_chance"
    NOTHING_TO_RELOAD = "nothing_to_reload"  # the weapon is ready to fire
    TARGET_OUT_OF_COMBAT = "target_out_of_combat"  # Myst: Status Globale 0 already (M-2)
    # a hit's margin spent after the dice (Myst, M-1)
    MARGIN_WAITING = "margin_waiting"  # another command while a margin waits to be spent
    NO_MARGIN_TO_SPEND = "no_margin_to_spend"
    NEGATIVE_SPEND = "negative_spend"
    MARGIN_OVERSPENT = "margin_overspent"
    OVER_STRENGTH_CAP = "over_strength_cap"
    OVER_DIE_MAXIMUM = "over_die_maximum"
    UNKNOWN_MARGIN_USE = "unknown_margin_use"
    UNKNOWN_COUNTER_MOVE = "unknown_counter_move"  # not a defence-margin move, or listed twice
    NOT_IN_GRAB = "not_in_grab"  # Myst: break_grab from a fighter nobody holds (002:l.109)
    IN_A_GRAB = "in_a_grab"  # Myst: a fighter in a grab moves nowhere (002:l.116)
    # Myst's riders (002:l.118-185)
    NOT_MOUNTED = "not_mounted"  # a gait of a fighter on foot
    UNKNOWN_GAIT = "unknown_gait"
    SAME_GAIT = "same_gait"  # it rides at that gait already, nothing declared to withdraw
    GAIT_TOO_FAR = "gait_too_far"  # one step at a time (002:l.153)
    # help and objects (the medkit's own refusals are the rules' MedkitResult)
    NOT_AN_ALLY = "not_an_ally"
    NOT_ADJACENT = "not_adjacent"
    UNKNOWN_OBJECT = "unknown_object"
    NO_MEDKIT = "no_medkit"
    UNKNOWN_WOUND = "unknown_wound"
    TARGET_DEAD = "target_dead"
    OWN_MORTAL_WOUND = "own_mortal_wound"
    NO_SUCH_WOUND = "no_such_wound"
    # the GM's commands
    UNKNOWN_FACTION = "unknown_faction"
    NOT_WAITING = "not_waiting"
    CANNOT_STAND = "cannot_stand"
    NOT_IN_ORDER = "not_in_order"
    BAD_TIE_ORDER = "bad_tie_order"
    NO_FACES = "no_faces"
    BAD_DIE_FACE = "bad_die_face"
    UNKNOWN_CONDITION = "unknown_condition"
    BAD_CONDITION = "bad_condition"
    NOT_ON_MAP = "not_on_map"
    UNKNOWN_OBSTACLE = "unknown_obstacle"
    UNKNOWN_TERRAIN = "unknown_terrain"
    CELL_OCCUPIED = "cell_occupied"
    NOTHING_TO_RULE = "nothing_to_rule"
    UNKNOWN_VERDICT = "unknown_verdict"
    NEEDS_CHECK_AND_DC = "needs_check_and_dc"
    FIELD_UNCHANGED = "field_unchanged"  # the light, smoke and weather are already so
    # undo and redo
    NOTHING_TO_UNDO = "nothing_to_undo"
    NOTHING_TO_REDO = "nothing_to_redo"
    UNDO_NOT_YOURS = "undo_not_yours"
    UNDO_WOULD_HIDE_WHAT_WAS_SEEN = "undo_would_hide_what_was_seen"  # what the undoer saw
    UNDO_SEEN_BY_ANOTHER = "undo_seen_by_another"  # another player has had the screen since


class Happened(StrEnum):
    """The kinds of event a command causes."""

    COMBAT_STARTED = "combat_started"
    ROUND_STARTED = "round_started"
    INITIATIVE = "initiative"
    INITIATIVE_REORDERED = "initiative_reordered"
    INITIATIVE_RESTARTED = "initiative_restarted"
    TURN_STARTED = "turn_started"
    TURN_SKIPPED = "turn_skipped"
    TURN_ENDED = "turn_ended"
    TURN_CUT_SHORT = "turn_cut_short"
    TURN_PASSED = "turn_passed"
    MOVED = "moved"
    MOVE_STOPPED = "move_stopped"
    AMBUSHED = "ambushed"
    FLYING = "flying"  # a microgravity jump that lands in a later turn (P-ZERO-1)
    DRIFTED = "drifted"  # a carried velocity or a jump in flight carries a unit on (P-ZERO-1/2)
    COASTING = "coasting"  # dampers off: the turn ends with a velocity kept (P-ZERO-2)
    JUMP_CHECK = "jump_check"  # a jump above or a drop below n_max (P-JUMP-1/3)
    COLLIDED = "collided"  # a leap landed on a unit in its landing cell (P-MOV-8)
    STEPPED_ASIDE = "stepped_aside"  # out of a shared cell to one of the 8 around (P-MOV-8)
    FIVE_FOOT_STEP = "five_foot_step"  # d20: one cell without attacks of opportunity (D-2)
    DASHED = "dashed"
    ATTACK = "attack"
    REACTION_ATTACK = "reaction_attack"
    THROW = "throw"
    DAMAGE = "damage"
    MARGIN_WON = "margin_won"  # a hit's margin waits for its attacker's choice (M-1)
    MARGIN_SPENT = "margin_spent"
    DEFENCE_MARGIN = "defence_margin"  # a won defence's counter-moves (M-1)
    DEFENCE_PLAN = "defence_plan"  # a unit's standing counter-moves, told to its own side
    CLOSED_DEFENCE = "closed_defence"  # Myst: its action given up for defence (002:l.81, 137)
    BROKE_OFF = "broke_off"  # Myst: a won defence's step out of the melee (002:l.78)
    GRAB_BREAK = "grab_break"  # Myst: the grabbed fighter's roll to break free (002:l.113)
    GRAB_ENDED = "grab_ended"  # Myst: a grab broken, let go or ended by the fight (002:l.116)
    UNBALANCE_LAPSED = "unbalance_lapsed"  # Myst: a push's penalty given up (002:l.105)
    DIED = "died"
    DEATH_SAVE = "death_save"
    DYING = "dying"  # d20: a dying creature's d% at the start of its turn (D-2)
    # the d20 coup de grâce (004:l.114-120)
    COUP_DE_GRACE_BEGUN = "coup_de_grace_begun"  # declared: its attacks of opportunity first
    COUP_DE_GRACE = "coup_de_grace"  # the automatic critical
    COUP_DE_GRACE_LOST = "coup_de_grace_lost"  # the target dead or out of reach meanwhile
    FORTITUDE_SAVE = "fortitude_save"  # the survivor's save at DC 10 + damage, or death
    STANCE = "stance"
    DODGE = "dodge"
    DISENGAGE = "disengage"
    HELP = "help"
    READY = "ready"
    HIDE = "hide"
    SEARCH = "search"
    STEALTH_CHECK = "stealth_check"
    MEDKIT = "medkit"
    IMPROVISE = "improvise"
    IMPROVISE_RULED = "improvise_ruled"
    REACTION_OFFERED = "reaction_offered"
    REACTION_DECLINED = "reaction_declined"
    REACTION_LOST = "reaction_lost"
    SIGHTED = "sighted"
    REVEALED = "revealed"
    CONCEALED = "concealed"
    DISCOVERED = "discovered"
    SURPRISED = "surprised"
    ARRIVED = "arrived"
    REINFORCEMENT_CALLED = "reinforcement_called"
    DICE_ENTERED = "dice_entered"
    CONDITION = "condition"
    CELL_EDITED = "cell_edited"
    FIELD_CONDITIONS = "field_conditions"  # the GM's light, smoke and weather (issue 15)
    CONTROLLER = "controller"
    COMBAT_OVER = "combat_over"
    DAMAGE_DEFERRED = "damage_deferred"  # harm kept aside while a simultaneous group acts (F-1)
    RELOADED = "reloaded"  # a turn spent reloading a CAD weapon (fantasy, 003:l.140)
    # Cepheus's round (C-1, C-4)
    AIMED = "aimed"
    HASTY = "hasty"
    DELAYED = "delayed"
    REACT_STANCE = "react_stance"
    FIRE_MODE = "fire_mode"
    REACTED = "reacted"
    SUPPRESSION_FIRE = "suppression_fire"  # 000:l.317-321
    SUPPRESSED = "suppressed"
    # Myst's riders (002:l.118-185)
    GAIT_DECLARED = "gait_declared"  # a change of gait, taken at the rider's next turn (l.153)
    STRIKE_HORSE = "strike_horse"  # a melee attacker's choice of horse or rider (l.150)
    RIDING_CHECK = "riding_check"  # the extra Cavalcare roll after a violent blow (l.154)
    UNHORSED = "unhorsed"  # a fall from the horse and its Atletica roll (l.156-185)
    GALLOP_DEFENDED = "gallop_defended"  # no action after defending at a gallop (l.144)
