"""The window layer: the only package (with the entry point) that draws with pygame."""
