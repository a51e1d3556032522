"""Pure rules of the combat systems, their data and the rulesets: no pygame, esper or numpy."""
