"""The application around a battle, without pygame: settings, saves, warm-up, the draft."""
