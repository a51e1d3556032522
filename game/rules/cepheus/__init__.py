"""Cepheus Engine (seed 000, RULINGS C-1..C-5): pure rules and their TOML data, no grid."""
