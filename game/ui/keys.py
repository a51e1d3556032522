"""The battle window's keyboard shortcuts: one table for the bar, the help and the handler."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pygame

#: Command kinds of game.battle.options and window actions -> the keys that give them.
#: W, A, S, D and the arrows pan the map, so no command uses them.
DEFAULT_KEYS: dict[str, tuple[int, ...]] = {
    "move": (pygame.K_m,),
    "five_foot_step": (pygame.K_b,),
    "attack": (pygame.K_x,),
    "throw": (pygame.K_t,),
    "reload": (pygame.K_l,),
    "dash": (pygame.K_r,),
    "dodge": (pygame.K_o,),
    "disengage": (pygame.K_e,),
    "help": (pygame.K_h,),
    "ready": (pygame.K_y,),
    "hide": (pygame.K_k,),
    "search": (pygame.K_f,),
    "use_object": (pygame.K_u,),
    "crouch": (pygame.K_c,),
    "prone": (pygame.K_p,),
    "stand": (pygame.K_v,),
    "improvise": (pygame.K_i,),
    "end_turn": (pygame.K_RETURN, pygame.K_KP_ENTER),
    # a round's own commands (Cepheus C-1/C-4)
    "aim": (pygame.K_g,),
    "hasty": (pygame.K_j,),
    "delay": (pygame.K_y,),  # Y as periferie's ready (both hold the turn); L reloads, H helps
    "react_stance": (pygame.K_b,),
    "fire_mode": (pygame.K_z,),
    "break_grab": (pygame.K_g,),  # Myst's grab (no aim there)
    # d20's coup de grâce (004:l.114): K, as periferie's hide, which d20 has not
    "coup_de_grace": (pygame.K_k,),
    "confirm": (pygame.K_SPACE,),
    "cancel": (pygame.K_ESCAPE,),
    "next_unit": (pygame.K_TAB,),
    "level_up": (pygame.K_PAGEUP,),
    "level_down": (pygame.K_PAGEDOWN,),
    "fit": (pygame.K_HOME,),
    "mode": (pygame.K_n,),
    "stealth": (pygame.K_q,),
    "take": (pygame.K_y,),
    "let_go": (pygame.K_n,),
    "help_keys": (pygame.K_F1,),
}

PAN_KEYS: dict[int, tuple[int, int]] = {
    pygame.K_LEFT: (-1, 0),
    pygame.K_a: (-1, 0),
    pygame.K_RIGHT: (1, 0),
    pygame.K_d: (1, 0),
    pygame.K_UP: (0, -1),
    pygame.K_w: (0, -1),
    pygame.K_DOWN: (0, 1),
    pygame.K_s: (0, 1),
}


_KEY_NAMES = {
    "return": "Enter",
    "escape": "Esc",
    "space": "Space",
    "page up": "PgUp",
    "page down": "PgDn",
    "tab": "Tab",
    "home": "Home",
}


class KeyMap:
    """Which key gives which command; the first key of each is the one shown."""

    def __init__(self, keys: dict[str, tuple[int, ...]] | None = None) -> None:
        self.keys = dict(DEFAULT_KEYS if keys is None else keys)

    @classmethod
    def from_names(cls, names: Mapping[str, Sequence[str]]) -> KeyMap:
        """The map for key names as pygame.key.name gives them (game/app/settings.py stores names);
        an action with a name pygame does not know keeps its default keys."""
        keys = dict(DEFAULT_KEYS)
        for action, key_names in names.items():
            try:
                keys[action] = tuple(pygame.key.key_code(n) for n in key_names)
            except ValueError:
                continue
        return cls(keys)

    def label(self, name: str) -> str:
        keys = self.keys.get(name, ())
        if not keys:
            return ""
        name = pygame.key.name(keys[0])
        return _KEY_NAMES.get(name, name.upper())

    def matches(self, name: str, key: int) -> bool:
        return key in self.keys.get(name, ())
