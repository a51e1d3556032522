"""A battle in play: the engine, its journal, undo and redo by replay, the computer's turns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from game.battle import commands as cmd
from game.battle.engine import GM, Battle, Outcome, Refusal
from game.battle.journal import (
    Entry,
    JournalError,
    JournalWriter,
    dice_of,
    read_journal,
)
from game.battle.setup import BattleSetup, file_sha256
from game.maps import MapError, load_map
from game.rules.data import RulesData, load_rules
from game.rules.dice import DiceError


@dataclass(frozen=True)
class Step:
    """One command in effect: who gave it, and whether a player may take it back (it rolled
    no dice and showed no unit to anyone)."""

    by: str
    command: cmd.Command
    private: bool


def load_battle_map(setup: BattleSetup, where: str) -> tuple[object, str]:
    """The map's grid, checked against the hash the battle began with."""
    path = Path(setup.map_path)
    try:
        loaded = load_map(path)
    except MapError as exc:
        raise JournalError(f"{where}: the battle's map cannot be loaded: {exc}") from None
    digest = file_sha256(path)
    if digest != setup.map_sha256:
        raise JournalError(
            f"{where}: the map {path} has changed since the battle began "
            f"(sha256 {digest[:12]}…, the journal says {setup.map_sha256[:12]}…)"
        )
    return loaded.grid, digest


class Session:
    """The battle, the journal that saves it, and the history undo and redo move along."""

    def __init__(
        self, setup: BattleSetup, grid: object, rules: RulesData, writer: JournalWriter | None
    ) -> None:
        self.setup = setup
        self._grid = grid
        self.rules = rules
        self.writer = writer
        self.battle = Battle(setup, grid, rules)  # type: ignore[arg-type]
        self.history: list[Step] = []
        self.undone: list[Step] = []
        self.notices: list[str] = []

    # ------------------------------------------------------------ opening

    @classmethod
    def new(cls, setup: BattleSetup, journal: Path | None) -> Session:
        """A new battle; its journal is created once the battle is known to be buildable."""
        grid, _digest = load_battle_map(setup, setup.map_path)
        session = cls._build(setup, grid, setup.map_path)
        if journal is not None:
            try:
                session.writer = JournalWriter.create(journal, setup)
            except JournalError:
                session.close()
                raise
        return session

    @classmethod
    def open(cls, journal: Path, *, for_append: bool = True) -> Session:
        """Rebuild a battle from its journal, checking every line's state hash."""
        contents = read_journal(journal)
        grid, _digest = load_battle_map(contents.setup, f"{journal}:1")
        session = cls._build(contents.setup, grid, f"{journal}:1")
        try:
            session.notices.extend(contents.notices)
            for entry in contents.entries:
                session._replay_entry(journal, entry)
            if for_append:
                session.writer = JournalWriter.append_to(journal, contents.good_bytes)
        except JournalError:
            session.close()
            raise
        return session

    @classmethod
    def _build(cls, setup: BattleSetup, grid: object, where: str) -> Session:
        """The battle at its start; units whose template, weapon or armour the rules do not
        know are refused naming `where` (the map, or the journal's header)."""
        try:
            return cls(setup, grid, load_rules(), None)
        except ValueError as exc:
            raise JournalError(f"{where}: {exc}") from None

    def _replay_entry(self, journal: Path, entry: Entry) -> None:
        where = f"{journal}:{entry.line}"
        if entry.marker == "undo":
            if not self._undo_steps(entry.by):
                raise JournalError(f"{where}: an undo with nothing that {entry.by} may undo")
            return
        if entry.marker == "redo":
            if not self.undone:
                raise JournalError(f"{where}: a redo with nothing to redo")
            self._redo_step()
            return
        assert entry.command is not None
        try:
            outcome = self._apply(entry.command, entry.by)
        except DiceError as exc:  # a GM face entered by hand that fits no die it meets
            raise JournalError(f"{where}: {exc}") from None
        if outcome.refusal is not None:
            raise JournalError(
                f"{where}: the battle refuses this command ({outcome.refusal.code}): "
                "the journal does not match this version of the rules"
            )
        if [list(d) for d in entry.dice] != dice_of(outcome.rolls):
            raise JournalError(f"{where}: the dice differ from those the journal recorded")
        if entry.state_hash and entry.state_hash != self.battle.state_hash():
            raise JournalError(f"{where}: the state differs from the one the journal recorded")

    # ------------------------------------------------------------ playing

    def _apply(self, command: cmd.Command, by: str) -> Outcome:
        outcome = self.battle.apply(command, by)
        if outcome.accepted:
            private = not outcome.rolls and not outcome.sighted
            self.history.append(Step(by, command, private))
            self.undone.clear()
        return outcome

    def submit(self, command: cmd.Command, by: str) -> Outcome:
        """Apply a command; an accepted one is journaled (durably) before this returns.

        A face the GM entered that does not fit the die it lands on is only found mid-command:
        the battle is then rebuilt as it was before the command, which is refused."""
        try:
            outcome = self._apply(command, by)
        except DiceError as exc:
            self._rebuild()
            return Outcome(refusal=Refusal("bad_die_face", why=str(exc)))
        if outcome.accepted and self.writer is not None:
            self.writer.write(
                {
                    "n": len(self.history),
                    "by": by,
                    "cmd": command.to_json(),
                    "dice": dice_of(outcome.rolls),
                    "hash": self.battle.state_hash(),
                }
            )
        return outcome

    def override(self, faces: tuple[int, ...], by: str) -> Outcome:
        """The GM overrides the dice of the last command: it is taken back (with any physical
        dice entered just before it, which it used) and given again with `faces` entered for
        its rolls (P-CHK-4). Every step is journaled."""
        if by != GM:
            return Outcome(refusal=Refusal("gm_only", command="override"))
        if not self.history:
            return Outcome(refusal=Refusal("nothing_to_undo"))
        if not faces:
            return Outcome(refusal=Refusal("no_faces"))
        last = self.history[-1]
        self.undo(GM)
        while self.history and isinstance(self.history[-1].command, cmd.EnterRoll):
            self.undo(GM)
        entered = self.submit(cmd.EnterRoll(faces), GM)
        if not entered.accepted:
            return entered
        again = self.submit(last.command, last.by)
        return again

    def can_undo(self, by: str) -> Refusal | None:
        """None when `by` may undo the last command; else why not."""
        if not self.history:
            return Refusal("nothing_to_undo")
        if by == GM:
            return None
        last = self.history[-1]
        if last.by != by:
            return Refusal("undo_not_yours")
        if not last.private:
            return Refusal("undo_would_hide_what_was_seen")
        return None

    def undo(self, by: str) -> Refusal | None:
        refusal = self.can_undo(by)
        if refusal is not None:
            return refusal
        self._undo_steps(by)
        if self.writer is not None:
            self.writer.write({"n": len(self.history), "by": by, "undo": True})
        return None

    def redo(self, by: str) -> Refusal | None:
        if not self.undone:
            return Refusal("nothing_to_redo")
        if by != GM and self.undone[-1].by != by:
            return Refusal("undo_not_yours")
        self._redo_step()
        if self.writer is not None:
            self.writer.write({"n": len(self.history), "by": by, "redo": True})
        return None

    def _undo_steps(self, by: str) -> bool:
        if self.can_undo(by) is not None:
            return False
        step = self.history.pop()
        undone = [*self.undone, step]
        self._rebuild()
        self.undone = undone
        return True

    def _redo_step(self) -> None:
        step = self.undone.pop()
        undone = list(self.undone)
        outcome = self._apply(step.command, step.by)
        if not outcome.accepted:  # the battle replays exactly: this cannot happen
            raise AssertionError(f"redo of {step.command.KIND} was refused")
        self.undone = undone

    def _rebuild(self) -> None:
        """The state before the last step: the battle replayed from its start (same dice, fog,
        initiative), which is what makes undo exact."""
        steps = self.history
        self.battle.close()
        self.battle = Battle(self.setup, self._grid, self.rules)  # type: ignore[arg-type]
        self.history = []
        for step in steps:
            if not self.battle.apply(step.command, step.by).accepted:
                raise AssertionError(f"replaying {step.command.KIND} was refused")
            self.history.append(step)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.battle.close()

    # ------------------------------------------------------------ the computer

    def play_computer(
        self,
        on_outcome: Callable[[str, cmd.Command, Outcome], None] | None = None,
        limit: int = 500,
        before: Callable[[cmd.Command], None] | None = None,
    ) -> int:
        """Let the computer act while it is its turn (or its reaction); answer how many commands
        it gave. `limit` guards against a loop that would never end. `before` sees each command
        before it is given (the window takes a move's path then, to animate it)."""
        from game.battle.ai import choose

        given = 0
        while given < limit and not self.battle.over:
            actor = self._computer_actor()
            if actor is None:
                break
            command = choose(self.battle, actor)
            if before is not None:
                before(command)
            outcome = self.submit(command, self.battle.controller_of(self.battle.faction_of(actor)))
            if not outcome.accepted:
                fallback: cmd.Command = (
                    cmd.React(actor, take=False)
                    if self.battle.pending is not None
                    else cmd.EndTurn(actor)
                )
                outcome = self.submit(fallback, "computer")
                if not outcome.accepted:
                    raise AssertionError(f"the computer is stuck: {outcome.refusal}")
                command = fallback
            given += 1
            if on_outcome is not None:
                on_outcome("computer", command, outcome)
        return given

    def _computer_actor(self) -> str | None:
        b = self.battle
        unit = b.pending.reactor if b.pending is not None else b.active
        if unit is None:
            return None
        return unit if b.controller_of(b.faction_of(unit)) == "computer" else None
