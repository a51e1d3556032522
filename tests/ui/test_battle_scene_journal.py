"""The window when the journal cannot take a line (a full disk): a message, not an internal
error, and the battle stays as it was saved."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path
from typing import Any

import pygame

from game.battle.journal import JournalWriter
from tests.ui.conftest import MakeWindow, Window


class FullDisk(io.RawIOBase):
    """A journal file on a full disk while `full` is set: every write fails with ENOSPC."""

    def __init__(self, path: Path) -> None:
        self.file = path.open("ab", buffering=0)
        self.full = True

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.file.write(bytes(data))

    def fileno(self) -> int:
        return self.file.fileno()

    def tell(self) -> int:
        return self.file.tell()

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.file.seek(offset, whence)

    def truncate(self, size: int | None = None) -> int:
        return self.file.truncate(size)

    def close(self) -> None:
        self.file.close()
        super().close()


def _journaled_on_full_disk(w: Window, path: Path) -> FullDisk:
    JournalWriter.create(path, w.session.setup).close()
    disk = FullDisk(path)
    w.session.writer = JournalWriter(path, disk)
    return disk


def test_a_full_disk_is_said_in_the_status_line_and_the_turn_is_not_ended(
    make_window: MakeWindow, tmp_path: Path
) -> None:
    w = make_window()
    disk = _journaled_on_full_disk(w, tmp_path / "battle.jsonl")
    active, before = w.battle.active, w.battle.state_hash()
    w.key(pygame.K_RETURN)  # end the turn
    assert w.scene.bar.status.text == "The disk is full; the battle is saved up to command 0."
    assert w.battle.active == active and w.battle.state_hash() == before
    assert not w.session.history
    disk.full = False  # room again: the same key ends the turn
    w.key(pygame.K_RETURN)
    assert len(w.session.history) >= 1 and w.battle.active != active


def test_the_computers_turn_on_a_full_disk_is_said_and_waits_for_room(
    make_window: MakeWindow, tmp_path: Path
) -> None:
    w = make_window()
    disk = _journaled_on_full_disk(w, tmp_path / "battle.jsonl")
    disk.full = False
    w.key(pygame.K_RETURN)  # Kask ends the turn: the computer's side is next
    assert w.battle.controller_of_unit(w.battle.active or "") == "computer"
    disk.full = True
    given = len(w.session.history)
    w.frames(30)
    assert "The disk is full" in w.scene.bar.status.text
    assert len(w.session.history) == given
    disk.full = False
    w.settle()
    assert len(w.session.history) > given
