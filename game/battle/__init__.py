"""The running battle: commands, the engine that applies them, the journal, views, the computer."""
