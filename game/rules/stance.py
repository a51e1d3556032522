"""Stances (P-TURN-2): standing, crouched, prone."""

from __future__ import annotations

from enum import Enum


class Stance(Enum):
    STANDING = "standing"
    CROUCHED = "crouched"
    PRONE = "prone"

    @classmethod
    def from_name(cls, name: str) -> Stance:
        try:
            return cls(name.strip().lower())
        except ValueError:
            raise ValueError(
                f"unknown stance {name!r} (expected standing, crouched or prone)"
            ) from None

    @property
    def low(self) -> bool:
        """Crouched or prone: the stances that turn half-obstacle light cover heavy (P-COV-5)."""
        return self is not Stance.STANDING
