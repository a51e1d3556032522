"""Myst's advanced combat (seed 002, rulings M-1, M-2): pure rules and their TOML data."""
