"""The window layer: the only package (with the entry point) that draws with pygame."""

import os

# pygame greets on import; a player starting the game should see the window, not a banner.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
