"""Player-facing text: the language (gettext), the wording of rules and battle events."""
