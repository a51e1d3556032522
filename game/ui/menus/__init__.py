"""The menus (pygame-gui), one module a screen: title, new_battle, load, settings; base.py is
the frame they share. The Director (game/ui/launch.py) moves between them."""
