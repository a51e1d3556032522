"""A battle in play: the engine, its journal and snapshots, undo and redo by replay, the
computer's turns."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.battle import commands as cmd
from game.battle.engine import GM, Battle, Outcome, Refusal, SnapshotError, setup_digest
from game.battle.events import Event
from game.battle.journal import (
    VERSION,
    Entry,
    JournalContents,
    JournalError,
    JournalWriteError,
    JournalWriter,
    dice_of,
    read_journal,
    snapshot_line,
)
from game.battle.reasons import Happened
from game.battle.setup import BattleSetup, file_sha256
from game.maps import MapError, load_map
from game.rules.data import RulesData, load_rules
from game.rules.dice import DiceError
from game.tactics.ruleset import battle_rules

#: A snapshot every this many commands in effect (docs/performance.md: reopening a battle
#: replays at most this many commands, and each costs a few milliseconds and kilobytes).
SNAPSHOT_EVERY = 100


@dataclass(frozen=True)
class Step:
    """One command in effect: who gave it, whether it was private (it rolled no dice and showed
    no unit to anyone: journaled), whether it showed its giver something they did not know
    (`news`, see `_news`; None: not known yet, a step read from the journal below a snapshot
    and not carried out in this session), and the players who have had the screen since it was
    given (`seen`: while it was the last step, or a step after it since undone)."""

    by: str
    command: cmd.Command
    private: bool
    news: bool | None = None
    seen: frozenset[str] = frozenset()
    #: The state hash recorded after it ("" when none was taken), and its journal line (0:
    #: none yet, or no journal).
    state_hash: str = ""
    line: int = 0


@dataclass
class _Snapshot:
    """A snapshot kept in memory: the battle after the first `n` steps (`Battle.snapshot()`,
    its whole log), the state hash it must restore to ("" once it is known not to: it is not
    used), and the journal line it was read from (None: taken in this session). `checked`: it
    is known to be what the steps before it replay to (one taken in this session is; one read
    from a journal is checked before an undo first relies on the past)."""

    n: int
    data: dict[str, Any]
    state_hash: str
    line: int | None = None
    checked: bool = True


@dataclass
class _Plan:
    """Where reopening a journal begins: the snapshot (None: the battle's start), the steps in
    effect and undone when it was taken, the entries after it, and the snapshots still valid."""

    start: _Snapshot | None = None
    history: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)
    first: int = 0
    snapshots: list[_Snapshot] = field(default_factory=list)


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
        self,
        setup: BattleSetup,
        grid: object,
        rules: RulesData,
        writer: JournalWriter | None,
        *,
        battle: Battle | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.setup = setup
        self._grid = grid
        self.rules = rules
        self.writer = writer
        self.battle = battle if battle is not None else Battle(setup, grid, rules)  # type: ignore[arg-type]
        self.history: list[Step] = []
        self.undone: list[Step] = []
        self.notices: list[str] = []
        #: A snapshot is taken (and journaled) each time this many commands are in effect; 0:
        #: never.
        self.snapshot_every = snapshot_every
        #: Snapshots of this battle, oldest first, each of the first `n` steps of `history`:
        #: an undo drops those it passes below.
        self._snapshots: list[_Snapshot] = []
        #: The state hash of journals of version 1 and 2 (continued in their own version).
        self.legacy_hash = writer is not None and writer.version < 3
        #: The journal the battle was opened from or is written to (for messages).
        self.journal: Path | None = None if writer is None else writer.path

    def state_hash(self) -> str:
        """The battle's state hash as its journal records it."""
        return self.battle.state_hash(legacy=self.legacy_hash)

    # ------------------------------------------------------------ opening

    @classmethod
    def new(
        cls,
        setup: BattleSetup,
        journal: Path | None,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        version: int = VERSION,
    ) -> Session:
        """A new battle; its journal is created once the battle is known to be buildable.
        `version`: an older journal format (2), for a journal an older Tessera must read."""
        grid, _digest = load_battle_map(setup, setup.map_path)
        session = cls._build(setup, grid, setup.map_path)
        session.snapshot_every = snapshot_every
        if journal is not None:
            try:
                session.writer = JournalWriter.create(journal, setup, version)
            except (JournalError, ValueError):
                session.close()
                raise
            session.journal = journal
            session.legacy_hash = version < 3
        return session

    @classmethod
    def open(
        cls,
        journal: Path,
        *,
        for_append: bool = True,
        snapshot_every: int = SNAPSHOT_EVERY,
        verify: bool = False,
    ) -> Session:
        """Rebuild a battle from its journal: from its last snapshot still valid, replaying the
        lines after it and checking each one's dice and state hash (from its start when there
        is no such snapshot). `verify` replays every line from the start instead and checks
        every snapshot against that replay (`tessera replay`: an edit anywhere is found)."""
        contents = read_journal(journal)
        grid, _digest = load_battle_map(contents.setup, f"{journal}:1")
        plan = _plan(journal, contents)
        if verify:
            plan = _Plan(snapshots=plan.snapshots)
        legacy = contents.version < 3
        if plan.start is None:
            session = cls._build(contents.setup, grid, f"{journal}:1")
        else:
            battle = _restored(journal, contents, grid, plan.start, legacy)
            session = cls(contents.setup, grid, battle.rules, None, battle=battle)
            session.history = plan.history[: plan.start.n]
            session.undone = plan.undone
        session.legacy_hash = legacy
        session.journal = journal
        session.snapshot_every = snapshot_every
        session._snapshots = plan.snapshots
        try:
            session.notices.extend(contents.notices)
            for entry in contents.entries[plan.first :]:
                session._replay_entry(journal, entry)
            if verify:
                session._check_past()
            if for_append:
                session.writer = JournalWriter.append_to(
                    journal, contents.good_bytes, contents.version
                )
                session.take_snapshot()  # one due when a crash kept it from being written
        except JournalError:
            session.close()
            raise
        return session

    @classmethod
    def _build(cls, setup: BattleSetup, grid: object, where: str) -> Session:
        """The battle at its start; units whose template, weapon or armour the rules do not
        know are refused naming `where` (the map, or the journal's header)."""
        try:
            battle_rules(setup.ruleset)  # a query-only ruleset is refused before its data is read
            # periferie's data is the shared base (the maps name its templates)
            return cls(setup, grid, load_rules(), None)
        except ValueError as exc:
            raise JournalError(f"{where}: {exc}") from None

    def _replay_entry(self, journal: Path, entry: Entry) -> None:
        where = f"{journal}:{entry.line}"
        if entry.marker == "seen":
            _looked(self.history, entry.by)
            return
        if entry.marker == "undo":
            if not self._undo_steps(entry.by):
                raise JournalError(f"{where}: an undo with nothing that {entry.by} may undo")
            return
        if entry.marker == "redo":
            if not self.undone:
                raise JournalError(f"{where}: a redo with nothing to redo")
            _looked(self.history, entry.by)
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
        _looked(self.history, entry.by, below=1)
        if [list(d) for d in entry.dice] != dice_of(outcome.rolls):
            raise JournalError(f"{where}: the dice differ from those the journal recorded")
        if entry.state_hash != self.state_hash():
            raise JournalError(f"{where}: {_STATE_DIFFERS}")
        self.history[-1] = replace(self.history[-1], state_hash=entry.state_hash, line=entry.line)
        if entry.private is not None and entry.private != self.history[-1].private:
            raise JournalError(
                f"{where}: whether a player may take the command back differs from the journal"
            )

    # ------------------------------------------------------------ playing

    def _apply(self, command: cmd.Command, by: str) -> Outcome:
        outcome, news = _measured(self.battle, command, by)
        if outcome.accepted:
            private = not outcome.rolls and not outcome.sighted
            self.history.append(Step(by, command, private, news))
            self.undone.clear()
        return outcome

    def submit(self, command: cmd.Command, by: str) -> Outcome:
        """Apply a command; an accepted one is journaled (durably) before this returns.

        A face the GM entered that does not fit the die it lands on is only found mid-command:
        the battle is then rebuilt as it was before the command, which is refused.

        A line the disk refuses (it is full) raises JournalWriteError: the command is taken
        back (nothing of it was shown), and the battle is as its journal saved it."""
        undone = list(self.undone)
        try:
            outcome = self._apply(command, by)
        except DiceError as exc:
            self._rebuild()
            return Outcome(refusal=Refusal("bad_die_face", why=str(exc)))
        if not outcome.accepted:
            return outcome
        _looked(self.history, by, below=1)  # who gives a command has the screen
        state_hash = ""
        if self.writer is not None:
            state_hash = self.state_hash()
            line: dict[str, Any] = {
                "n": len(self.history),
                "by": by,
                "cmd": command.to_json(),
                "dice": dice_of(outcome.rolls),
                "hash": state_hash,
            }
            if self.writer.version >= 2 and self.history[-1].private:
                line["private"] = True
            try:
                self.writer.write(line)
            except OSError as exc:
                self.history.pop()
                self._rebuild()
                self.undone = undone
                raise self._write_error(exc) from None
            self.history[-1] = replace(self.history[-1], state_hash=state_hash)
        self.take_snapshot(state_hash)
        return outcome

    def _write_error(self, error: OSError) -> JournalWriteError:
        assert self.writer is not None
        return JournalWriteError(self.writer.path, error, len(self.history))

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

    @property
    def snapshot_lines(self) -> tuple[int, ...]:
        """The journal lines (commands applied) after which a snapshot is kept, oldest first."""
        return tuple(s.n for s in self._snapshots)

    def can_undo(self, by: str) -> Refusal | None:
        """None when `by` may undo the last command; else why not. The GM may undo anything. A
        player may take back their own last command unless it showed them something they did
        not know (`_news`: a die they saw, a unit they now see, what another side's unit did),
        or another player has had the screen since (`seen_by`). What only another side learned
        from it, while none of its players has looked, goes with it: whether anybody learned
        anything never decides the answer, which depends only on what `by` saw and on who had
        the screen, both known to `by` (docs/battle.md, "Undo and redo")."""
        refusal = _undo_refusal(self.history, by)
        if refusal is not None or by == GM:
            return refusal
        if self._last_news():
            return Refusal("undo_would_hide_what_was_seen")
        if self.history[-1].seen - {by}:
            return Refusal("undo_seen_by_another")
        return None

    def seen_by(self, player: str) -> None:
        """`player` takes the screen now (the window's hand-over; `tessera run`'s `view`): they
        have looked at everything their view holds, so no player may take back a command in
        effect now that they did not give (it would take back what that person saw). The GM's
        and the computer's sight lock nothing. Journaled as a `seen` marker, so that it holds
        after the battle is saved and continued; giving a command, an undo or a redo counts as
        having the screen too, and their own lines say so."""
        looked = _looked(self.history, player)
        if looked and self.writer is not None and self.writer.version >= 2:
            self.writer.write({"n": len(self.history), "by": player, "seen": True})

    def undo(self, by: str) -> Refusal | None:
        refusal = self.can_undo(by)
        if refusal is not None:
            return refusal
        self._undo_steps(by)
        if self.writer is not None:
            try:
                self.writer.write({"n": len(self.history), "by": by, "undo": True})
            except OSError as exc:
                self._redo_step()  # the journal still has it in effect
                raise self._write_error(exc) from None
        return None

    def redo(self, by: str) -> Refusal | None:
        if not self.undone:
            return Refusal("nothing_to_redo")
        if by != GM and self.undone[-1].by != by:
            return Refusal("undo_not_yours")
        _looked(self.history, by)
        self._redo_step()
        if self.writer is not None:
            try:
                self.writer.write({"n": len(self.history), "by": by, "redo": True})
            except OSError as exc:
                step = self.history.pop()  # the journal still has it undone
                self._rebuild()
                self.undone.append(step)
                raise self._write_error(exc) from None
        self.take_snapshot()
        return None

    def _undo_steps(self, by: str) -> bool:
        """Take the last step back (a journal's undo marker is replayed as written: the rules
        for players' undo in force when it was written decided it; only whose it was is
        checked)."""
        if _undo_refusal(self.history, by) is not None:
            return False
        _looked(self.history, by)
        self._check_past()
        step = _popped(self.history)
        undone = [*self.undone, step]
        self._snapshots = [s for s in self._snapshots if s.n <= len(self.history)]
        self._rebuild()
        self.undone = undone
        return True

    def _redo_step(self) -> None:
        step = self.undone.pop()
        undone = list(self.undone)
        outcome = self._apply(step.command, step.by)
        if not outcome.accepted:  # the battle replays exactly: this cannot happen
            raise AssertionError(f"redo of {step.command.KIND} was refused")
        # What it shows is what it showed: those who saw it then have seen it.
        self.history[-1] = replace(
            self.history[-1], seen=step.seen, state_hash=step.state_hash, line=step.line
        )
        self.undone = undone

    def _last_news(self) -> bool:
        """Whether the last step showed its giver something they did not know."""
        last = self.history[-1]
        if last.news is None:
            last = replace(last, news=self._news_replayed(len(self.history) - 1))
            self.history[-1] = last
        return bool(last.news)

    def _news_replayed(self, index: int) -> bool:
        """`news` of step `index`, read from the journal below its snapshot and not carried out
        in this session: the steps up to it are carried out again on a battle of its own (from
        the latest snapshot below it)."""
        battle, start = self._latest_battle(index)
        try:
            for step in self.history[start:index]:
                battle.apply(step.command, step.by)
            step = self.history[index]
            return _measured(battle, step.command, step.by)[1]
        finally:
            battle.close()

    def _latest_battle(self, upto: int) -> tuple[Battle, int]:
        """A new battle after the first `start` steps: restored from the latest snapshot kept in
        memory with `start` <= `upto` that restores, or the battle's start (`start` 0)."""
        for snapshot in reversed(self._snapshots):
            if snapshot.n <= upto:
                battle = _restore(self.setup, self._grid, self.rules, snapshot, self.legacy_hash)
                if battle is not None:
                    return battle, snapshot.n
        return Battle(self.setup, self._grid, self.rules), 0  # type: ignore[arg-type]

    def _rebuild(self) -> None:
        """The battle as `history` leaves it: restored from the latest snapshot of it and the
        steps after replayed (same dice, fog, initiative), which is what makes undo exact."""
        self._check_past()
        steps = self.history
        self.battle.close()
        battle, start = self._latest_battle(len(steps))
        self.battle = battle
        self.history = steps[:start]
        for step in steps[start:]:
            if not self.battle.apply(step.command, step.by).accepted:
                raise AssertionError(f"replaying {step.command.KIND} was refused")
            self.history.append(step)

    def take_snapshot(self, state_hash: str = "") -> None:
        """Keep a snapshot when a multiple of `snapshot_every` commands are in effect and there
        is none of them yet, and journal it. Its line holds only the events after those of the
        snapshot before it (all of them when there is none: `log_from` 0), and a digest of the
        steps it was taken after."""
        n = len(self.history)
        every = self.snapshot_every
        if not every or not n or n % every or (self._snapshots and self._snapshots[-1].n >= n):
            return
        data = self.battle.snapshot()
        if self.writer is not None and self.writer.version >= 2:
            log_from = len(self._snapshots[-1].data["log"]) if self._snapshots else 0
            line = {
                **data,
                "log": data["log"][log_from:],
                "log_from": log_from,
                "steps": _steps_digest(self.history),
            }
            if self.writer.version >= 3:
                line["header"] = setup_digest(self.setup)
            try:
                self.writer.write(snapshot_line(n, line))
            except OSError as exc:
                # The command before it is saved; the snapshot is not kept (the next one's
                # log follows the one before it in the journal), and reopening writes it.
                raise self._write_error(exc) from None
        self._snapshots.append(_Snapshot(n, data, state_hash or self.state_hash()))

    def _check_past(self) -> None:
        """Before an undo relies on the past: check the snapshots read from the journal
        against the replay of the steps before them (from the battle's start, once; a
        reopened battle began from the last one). A forged snapshot, or a header edited so
        that the start differs, is refused naming the file and the line: nothing has changed
        yet."""
        unchecked = [s for s in self._snapshots if not s.checked]
        if not unchecked:
            return
        where = str(self.journal)
        try:
            battle = Battle(self.setup, self._grid, self.rules)  # type: ignore[arg-type]
        except ValueError as exc:  # the header's units, as the battle's start refuses them
            raise JournalError(f"{where}:1: {exc}") from None
        try:
            last = max(s.n for s in unchecked)
            for n in range(last + 1):
                for snapshot in unchecked:
                    if snapshot.n == n and _canonical(battle.snapshot()) != _canonical(
                        snapshot.data
                    ):
                        raise JournalError(
                            f"{where}:{snapshot.line}: the snapshot is not the battle the lines "
                            "before it replay to: it was changed after it was written"
                        )
                if n == last:
                    break
                step = self.history[n]
                try:
                    accepted = battle.apply(step.command, step.by).accepted
                except DiceError as exc:  # a GM's face that fits no die (the header changed)
                    raise JournalError(f"{where}:{step.line}: {exc}") from None
                if not accepted:
                    raise JournalError(
                        f"{where}:{step.line}: the battle refuses this command on replaying "
                        "it from the start (the header was changed)"
                    )
                # The first step's hash shows a changed header (its units, seed, flags) as the
                # replay begins; the snapshots are compared whole (a hash after every step
                # would cost a third of the replay again). A step a snapshot follows is left
                # to the snapshot, which names what was changed: the snapshot, and the hash
                # before it made to match it.
                if (
                    n == 0
                    and step.state_hash
                    and all(s.n != n + 1 for s in unchecked)
                    and step.state_hash != battle.state_hash(legacy=self.legacy_hash)
                ):
                    raise JournalError(f"{where}:{step.line}: {_STATE_DIFFERS}")
        finally:
            battle.close()
        for snapshot in unchecked:
            snapshot.checked = True

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
            outcome = self.submit(command, self.battle.controller_of_unit(actor))
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
        return unit if b.controller_of_unit(unit) == "computer" else None


# ---------------------------------------------------------------- snapshots


def _undo_refusal(history: Sequence[Step], by: str) -> Refusal | None:
    """Whether `by` may take the last step back at all: the GM any, a player their own.
    (What it showed, and to whom, is `Session.can_undo`'s.)"""
    if not history:
        return Refusal("nothing_to_undo")
    if by == GM:
        return None
    if history[-1].by != by:
        return Refusal("undo_not_yours")
    return None


#: Whose sight locks no undo: the GM (the referee, who sees every side and plays none) and the
#: computer (nobody looks).
_NO_LOOK = frozenset({GM, "computer"})
#: Events that tell a player nothing they could not tell already: the turn passing along the
#: order they see.
_TURN_ORDER = frozenset({Happened.TURN_STARTED, Happened.TURN_ENDED, Happened.ROUND_STARTED})


def _looked(history: list[Step], by: str, below: int = 0) -> bool:
    """`by` has the screen with the first len(history) - `below` steps in effect: the last of
    them is marked (and, through it, every step before it: see `_popped`). True when that is
    new."""
    index = len(history) - 1 - below
    if by in _NO_LOOK or index < 0 or by in history[index].seen:
        return False
    history[index] = replace(history[index], seen=history[index].seen | {by})
    return True


def _popped(history: list[Step]) -> Step:
    """Take the last step off; whoever had the screen while it was in effect saw the steps
    before it in effect too."""
    step = history.pop()
    if history and step.seen - history[-1].seen:
        history[-1] = replace(history[-1], seen=history[-1].seen | step.seen)
    return step


def _measured(battle: Battle, command: cmd.Command, by: str) -> tuple[Outcome, bool]:
    """Apply `command`; answer the outcome and whether it showed `by` (a player) something they
    did not know (`_news`)."""
    factions = frozenset() if by in _NO_LOOK else battle.factions_of(by)
    before = _known(battle, factions)
    outcome = battle.apply(command, by)
    return outcome, outcome.accepted and _news(battle, factions, before, outcome.events)


def _known(battle: Battle, factions: frozenset[str]) -> dict[str, tuple[frozenset[str], set[str]]]:
    """What each of `factions` knows of where units are: those it sees, and its ghosts (units
    it saw and lost, and where: `last_known`)."""
    sights = {f: battle.vision.factions[f] for f in factions}
    return {f: (s.units, set(s.last_known) - s.units) for f, s in sights.items()}


def _news(
    battle: Battle,
    factions: frozenset[str],
    before: dict[str, tuple[frozenset[str], set[str]]],
    events: Sequence[Event],
) -> bool:
    """Whether a command showed a player commanding `factions` something they did not know: a
    die they saw rolled (theirs, or an enemy's they may see), a unit they now see, a ghost gone
    (the unit is no longer where they last saw it), or any event they may see that names a unit
    of another side (a reaction offered them, an ambush, a unit drifting at its turn's start)
    but for the turn passing along the order."""
    for event in events:
        if not event.visible_to(factions):
            continue
        if event.rolls:
            return True
        if event.kind in _TURN_ORDER:
            continue
        named = _unit_names(event.data)
        if any(u in battle.world and battle.faction_of(u) not in factions for u in named):
            return True
    for faction, (units, ghosts) in _known(battle, factions).items():
        units_before, ghosts_before = before[faction]
        if ghosts_before - ghosts - units:
            return True
        if any(battle.faction_of(u) not in factions for u in units - units_before):
            return True
    return False


def _unit_names(value: Any) -> set[str]:
    """Every string in an event's data (those that are unit ids are the units it names)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {n for v in value.values() for n in _unit_names(v)}
    if isinstance(value, list | tuple):
        return {n for v in value for n in _unit_names(v)}
    return set()


#: A replayed command line whose state hash is not the one recorded.
_STATE_DIFFERS = (
    "the state differs from the one the journal recorded (the line, a line before it or the "
    "header was changed, or the journal is from another version of the rules)"
)


def _canonical(data: Mapping[str, Any]) -> str:
    """A snapshot's data as text, for comparing a snapshot with a replayed battle's: the fog's
    lists in sorted order (journals before version 3 wrote some in the order of a set)."""
    try:
        vision = dict(data["vision"])
        vision["factions"] = sorted(
            ({**f, "last_known": sorted(f["last_known"])} for f in vision["factions"]),
            key=lambda f: str(f["faction"]),
        )
        vision["views"] = sorted(vision["views"], key=lambda v: str(v["unit"]))
        return json.dumps({**data, "vision": vision}, sort_keys=True, ensure_ascii=False)
    except (KeyError, TypeError, ValueError):
        return json.dumps(data, sort_keys=True, ensure_ascii=False, default=repr)


def _chain(digest: str, step: Step) -> str:
    """The digest of the steps so far, `step` added: what a snapshot was taken after."""
    text = json.dumps([step.by, step.command.to_json(), step.private], ensure_ascii=False)
    return hashlib.sha256(f"{digest}\n{text}".encode()).hexdigest()


def _steps_digest(steps: Sequence[Step]) -> str:
    digest = ""
    for step in steps:
        digest = _chain(digest, step)
    return digest


def _plan(journal: Path, contents: JournalContents) -> _Plan:
    """Follow the journal's steps without carrying them out, to find its last snapshot still
    valid (an undo below a snapshot makes it stale) and the steps before it. A snapshot is
    used only when the steps the journal holds before it are the ones it was taken after, and
    a version-1 journal (that does not say which steps were private) is replayed whole."""
    entries = contents.entries
    if not contents.snapshots or any(e.command is not None and e.private is None for e in entries):
        return _Plan()
    history: list[Step] = []
    hashes: list[str] = []
    digests: list[str] = []
    undone: list[tuple[Step, str]] = []
    # Each valid snapshot, with the steps undone when it was taken and where the rest begins.
    valid: list[tuple[_Snapshot, list[Step], int, bool]] = []
    pending = list(contents.snapshots)
    for index in range(len(entries) + 1):
        while pending and pending[0].after == index:
            found = pending.pop(0)
            where = f"{journal}:{found.line}"
            if found.n != len(history):
                raise JournalError(
                    f"{where}: a snapshot after {found.n} commands where {len(history)} are "
                    "in effect"
                )
            data = dict(found.data)
            log_from, log, steps, header = (
                data.pop("log_from", None),
                data.get("log"),
                data.pop("steps", ""),
                data.pop("header", None),
            )
            if contents.version >= 3 and header != setup_digest(contents.setup):
                if not isinstance(header, str):
                    raise JournalError(f"{where}: the snapshot has no digest of the header")
                raise JournalError(
                    f"{journal}:1: the header is not the one the battle began with (the "
                    f"snapshot on line {found.line} was taken with another: a unit, the seed "
                    "or who plays what was edited)"
                )
            # The events after those of the snapshot before it (or all of them: from 0).
            before = valid[-1][0].data["log"] if valid and log_from else []
            if log_from != len(before) or not isinstance(log, list):
                raise JournalError(f"{where}: the snapshot's log does not follow the one before it")
            data["log"] = before + log
            snapshot = _Snapshot(found.n, data, hashes[-1], found.line, checked=False)
            valid.append((snapshot, [step for step, _h in undone], index, steps == digests[-1]))
        if index == len(entries):
            break
        entry = entries[index]
        where = f"{journal}:{entry.line}"
        if entry.marker == "seen":
            _looked(history, entry.by)
        elif entry.marker == "undo":
            if _undo_refusal(history, entry.by) is not None:
                raise JournalError(f"{where}: an undo with nothing that {entry.by} may undo")
            _looked(history, entry.by)
            undone.append((_popped(history), hashes.pop()))
            digests.pop()
            valid = [v for v in valid if v[0].n <= len(history)]
        elif entry.marker == "redo":
            if not undone:
                raise JournalError(f"{where}: a redo with nothing to redo")
            step, state_hash = undone.pop()
            _looked(history, entry.by)
            digests.append(_chain(digests[-1] if digests else "", step))
            history.append(step)
            hashes.append(state_hash)
        else:
            assert entry.command is not None and entry.private is not None
            step = Step(
                entry.by, entry.command, entry.private, state_hash=entry.state_hash, line=entry.line
            )
            _looked(history, entry.by)
            digests.append(_chain(digests[-1] if digests else "", step))
            history.append(step)
            hashes.append(entry.state_hash)
            undone.clear()
    plan = _Plan(history=history, snapshots=[v[0] for v in valid])
    for snapshot, steps_undone, first, same_steps in reversed(valid):
        # Steps that differ from those the snapshot was taken after mean a damaged line
        # before it: replaying from the start finds it.
        if not same_steps:
            return _Plan()
        if snapshot.state_hash:
            plan.start, plan.undone, plan.first = snapshot, steps_undone, first
            break
    return plan


def _restored(
    journal: Path, contents: JournalContents, grid: object, start: _Snapshot, legacy: bool
) -> Battle:
    """The battle from the journal's snapshot `start`, checked against the state hash the
    journal recorded for it; a damaged one is refused naming its line."""
    where = f"{journal}:{start.line}"
    rules = _rules(contents.setup.ruleset, f"{journal}:1")
    try:
        battle = Battle.restore(contents.setup, grid, rules, start.data)  # type: ignore[arg-type]
    except SnapshotError as exc:
        raise JournalError(f"{where}: damaged snapshot ({exc})") from None
    except ValueError as exc:  # the setup's units, as the battle's start would refuse them
        raise JournalError(f"{journal}:1: {exc}") from None
    if battle.state_hash(legacy=legacy) != start.state_hash:
        battle.close()
        raise JournalError(f"{where}: the snapshot is not the state the journal recorded before it")
    return battle


def _rules(ruleset: str, where: str) -> RulesData:
    try:
        battle_rules(ruleset)  # unknown, or query only: refused by name before its data is read
        return load_rules()  # periferie's data: the shared base (the maps name its templates)
    except ValueError as exc:
        raise JournalError(f"{where}: {exc}") from None


def _restore(
    setup: BattleSetup, grid: object, rules: RulesData, snapshot: _Snapshot, legacy: bool
) -> Battle | None:
    """The battle from a snapshot kept in memory, or None when it does not restore to the
    state it was taken of (it is then not tried again)."""
    if not snapshot.state_hash:
        return None
    try:
        battle = Battle.restore(setup, grid, rules, snapshot.data)  # type: ignore[arg-type]
    except ValueError:
        snapshot.state_hash = ""
        return None
    if battle.state_hash(legacy=legacy) != snapshot.state_hash:
        battle.close()
        snapshot.state_hash = ""
        return None
    return battle
