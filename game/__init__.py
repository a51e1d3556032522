"""Tessera: a tactical client for tabletop combat on a 3D grid of 1.5 m cubes."""

__version__ = "0.1.0"
