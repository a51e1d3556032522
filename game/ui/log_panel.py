"""The combat log as the player reads it: every event they may see in plain sentences (with its
cells, dice and rulings while Alt is held or Details is on), filtered by kind, kept in step with
the panel's text box without laying out the whole battle."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from game.battle.events import Event
from game.text.explain_battle import event_details, event_text
from game.ui import hud

#: The panel keeps this many entries when it starts again, and starts again past REBUILD.
KEPT = 40
REBUILD = 90
#: Characters of one entry at most (names in it come from the map and the journal): REBUILD
#: entries of 300 characters lay out in half a second, of 200,000 in hours.
ENTRY = 300
#: The filters and the kinds of event each keeps ("all" and "gm" are not kind lists).
KINDS: dict[str, frozenset[str]] = {
    "combat": frozenset({
        "attack", "reaction_attack", "throw", "damage", "died", "death_save", "dying", "medkit",
        "reaction_offered", "reaction_declined", "reaction_lost", "combat_over",
        "coup_de_grace_begun", "coup_de_grace", "coup_de_grace_lost", "fortitude_save",
    }),
    "movement": frozenset({
        "moved", "move_stopped", "ambushed", "dashed", "stance", "disengage", "arrived",
        "flying", "drifted", "coasting", "collided", "stepped_aside", "five_foot_step",
    }),
    "turns": frozenset({
        "combat_started", "round_started", "initiative", "initiative_reordered",
        "initiative_restarted", "turn_started", "turn_skipped", "turn_ended", "turn_cut_short",
        "turn_passed", "surprised",
    }),
    "sightings": frozenset({
        "sighted", "revealed", "concealed", "discovered", "hide", "search", "stealth_check",
        "ambushed",
    }),
}  # fmt: skip
GM_KINDS = frozenset({
    "concealed", "reinforcement_called", "dice_entered", "cell_edited", "condition",
    "improvise_ruled", "controller", "field_conditions",
})  # fmt: skip


def gm_event(event: Event) -> bool:
    """An act of the GM's: marked as such in the log."""
    return event.data.get("by") == "gm" or event.kind in GM_KINDS


class Log:
    """The events shown so far and how much of them the text box already holds."""

    def __init__(
        self, events: Sequence[Event] = (), initiative: Callable[[int], str] = str
    ) -> None:
        self.events: list[Event] = list(events)
        #: The ruleset's words for an initiative total (BattleRules.initiative_text).
        self.initiative = initiative
        self.filter = "all"
        #: Cells, dice and ruling ids shown (Alt held, or the panel's Details on); issue 17.
        self.details = False
        self._upto = 0
        self._last: Event | None = None
        self._entries = 0
        self._filter_shown = ""
        self.dirty = True

    def reset(self, events: Sequence[Event]) -> None:
        """The whole log anew (a new view: another player, an undo)."""
        self.events = list(events)
        self.dirty = True

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.dirty = True

    def set_filter(self, name: str) -> None:
        self.filter = name
        self.dirty = True

    def set_details(self, on: bool) -> None:
        """Show the cells, dice and ruling ids, or the plain sentences (the box starts again)."""
        if on != self.details:
            self.details = on
            self._filter_shown = ""
            self.dirty = True

    def entry(self, event: Event) -> str | None:
        """An event as a log entry under the chosen filter (None: filtered out)."""
        kinds = KINDS.get(self.filter)
        if kinds is not None and event.kind not in kinds:
            return None
        if self.filter == "gm" and not gm_event(event):
            return None
        text = hud.esc(event_text(event, details=self.details, initiative=self.initiative), ENTRY)
        if gm_event(event):
            text = f"<i>{text}</i>"
        details = event_details(event) if self.details else []
        if details:
            text += (
                "<br><font size=2 color='#9aa4b2'>"
                + "<br>".join(hud.esc(d, ENTRY) for d in details)
                + "</font>"
            )
        return text

    def show(self, side: hud.SidePanel) -> None:
        """Bring the panel up to the events: new entries are appended (pygame-gui lays out only
        them); a changed filter, a new view or a long box starts it again from the last KEPT
        entries, so that no frame pays for laying out the whole battle."""
        if not self.dirty:
            return
        self.dirty = False
        events = self.events
        done = self._upto
        continues = 0 < done <= len(events) and events[done - 1] is self._last
        if (
            self._filter_shown == self.filter
            and (continues or done == 0 == len(events))
            and self._entries < REBUILD
        ):
            new = [h for e in events[done:] if (h := self.entry(e)) is not None]
            if new:
                side.append_log(new)
                self._entries += len(new)
        else:
            entries = [h for e in events if (h := self.entry(e)) is not None][-KEPT:]
            side.set_log(entries)
            self._entries = len(entries)
            self._filter_shown = self.filter
        self._upto = len(events)
        self._last = events[-1] if events else None

    def text(self) -> str:
        """The whole log as Copy puts it on the clipboard: every entry in full, with its cells,
        dice and rulings, whatever the box shows."""
        out = []
        for event in self.events:
            out.append(event_text(event, initiative=self.initiative))
            out += ["    " + d for d in event_details(event)]
        return "\n".join(out)
