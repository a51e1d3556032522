"""The battle's entity-component world (esper): components, the world wrapper, the systems."""
