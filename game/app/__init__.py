"""The application around a battle: settings, saves, warm-up, the new-battle draft."""
