"""The d20 ruleset (seed 004, 3.5 combat modifiers, rulings D-1..D-3): pure rules and its data."""
