"""Pure rules of the combat systems: no pygame, no esper, no numpy."""
