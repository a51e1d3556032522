"""Battlefield scenarios: the headless `tessera query` rules engine and `tessera summary`."""
