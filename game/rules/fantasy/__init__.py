"""The dice-step fantasy system (seed 003, rulings F-1..F-3): pure rules and their TOML data."""
