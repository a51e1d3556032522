"""The ruleset objects, a module each, named by their ids in game/rules/registry.py."""
