"""The battle screen, split by job: scene.py wires input, orders, prompts and state together."""
