"""The application layer: what the window's screens keep and check, without pygame."""
