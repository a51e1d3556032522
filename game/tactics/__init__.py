"""Tactics: a battlefield as the rules read it, and the numbers a player sees on it."""
