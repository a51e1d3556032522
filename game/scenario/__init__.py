"""Battlefield scenarios and the headless `tessera query` rules engine."""
