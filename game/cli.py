"""Command line: `tessera` (the demo battle in a window), `play`, `run`, `replay`, `query`,
`check-map`, `summary`, `bench`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tessera", description="Tactical combat on a 3D cubic grid.")
    sub = p.add_subparsers(dest="command")
    q = sub.add_parser("query", help="answer rules questions about a scenario, as JSON")
    q.add_argument("scenario", help="scenario JSON file, or - for standard input")
    c = sub.add_parser("check-map", help="load a Tiled map and summarise it, or explain why not")
    c.add_argument("maps", nargs="+", metavar="MAP", help="one or more .tmx files")
    b = sub.add_parser("bench", help="measure the grid kernels against the speed goals")
    b.add_argument("--quick", action="store_true", help="fewer repetitions")
    r = sub.add_parser("run", help="play a battle headless: JSON commands in, JSON events out")
    r.add_argument("map", help="a .tmx file")
    r.add_argument("--journal", required=True, help="the battle's journal (continued if it exists)")
    r.add_argument(
        "--computer", action="append", default=[], metavar="FACTION", help="the computer plays it"
    )
    r.add_argument("--seed", type=int, default=None, help="the battle's dice seed")
    r.add_argument("--gm", action="store_true", help="a game master takes part")
    r.add_argument(
        "--initiative-dice",
        action="append",
        default=[],
        metavar="UNIT=N,...",
        help="the d20 rolled at the table for each unit's opening initiative",
    )
    _ruleset_option(r)
    rp = sub.add_parser("replay", help="rebuild a battle from its journal and summarise it")
    rp.add_argument("journal", help="a journal written by tessera run")
    d = sub.add_parser("demo", help="the demo battle in a window (the default command)")
    pl = sub.add_parser("play", help="a battle on a map in a window, the computer on other sides")
    pl.add_argument("map", help="a .tmx file")
    for window_parser in (d, pl):
        _window_options(window_parser)
    _ruleset_option(pl)
    s = sub.add_parser("summary", help="print a map's sides, initiative and a worked attack")
    s.add_argument("map", nargs="?", default=None, help="a .tmx file (default: the demo map)")
    s.add_argument(
        "--ruleset",
        default=None,
        metavar="ID",
        help="summarise under this ruleset instead of the map's own",
    )
    return p


def _ruleset_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ruleset",
        default=None,
        metavar="ID",
        help="play under this ruleset instead of the map's own (a new battle only)",
    )


def _window_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--side", action="append", default=[], metavar="FACTION", help="the side you command"
    )
    p.add_argument(
        "--computer", action="append", default=[], metavar="FACTION", help="the computer plays it"
    )
    p.add_argument("--seed", type=int, default=1, help="the battle's dice seed")
    p.add_argument("--journal", default=None, help="save to (or continue) this journal")
    p.add_argument(
        "--size", default=None, help="window size, WIDTHxHEIGHT (default: the settings', 1280x720)"
    )
    p.add_argument("--frames", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--screenshot", default=None, help=argparse.SUPPRESS)


#: The exit status when whoever reads our output stops reading (`tessera run … | head -1`): the
#: shell's status for a command ended by SIGPIPE (128 + 13), as `cat` or `git log` give there.
CLOSED_OUTPUT = 141


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:  # plain `tessera`: the title screen, or the demo for a newcomer
        args = _parser().parse_args(["demo"])
        args.plain = True
    try:
        status = _dispatch(args)
        sys.stdout.flush()  # here, not at exit, so that a closed pipe is caught below
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return CLOSED_OUTPUT
    except Exception as exc:  # a bug: say so in one line; TESSERA_DEBUG=1 shows the traceback
        if os.environ.get("TESSERA_DEBUG"):
            raise
        print(
            f"tessera: internal error, please report it: {type(exc).__name__}: {exc}",
            file=sys.stderr,
        )
        return 1


def _quiet_stdout() -> None:
    """The reader has gone: point standard output at the null device, as the Python docs
    advise, so that nothing written later (or flushed at exit) reports the closed pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file behind sys.stdout: nothing to flush at exit
        pass


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "query":
        from game.scenario.cli import run_query

        return run_query(args.scenario)
    if args.command == "check-map":
        from game.maps.check import run_check_map

        return run_check_map(args.maps)
    if args.command == "bench":
        from game.bench.run import run_bench

        return run_bench(quick=args.quick)
    if args.command == "run":
        from game.battle.cli import run_battle

        return run_battle(
            args.map,
            args.journal,
            computer=args.computer,
            seed=args.seed,
            gm=args.gm,
            initiative_dice=args.initiative_dice,
            ruleset=args.ruleset,
        )
    if args.command == "replay":
        from game.battle.cli import replay_journal

        return replay_journal(args.journal)
    if args.command == "summary":
        from game.scenario.summary import DEMO_MAP, run_demo

        return run_demo(Path(args.map) if args.map else DEMO_MAP, args.ruleset)
    return _window(args)


def _window(args: argparse.Namespace) -> int:
    """`tessera`, `tessera demo` and `tessera play MAP`: a battle in a window."""
    from game.app.settings import Settings
    from game.ui.launch import DEMO_MAP, WindowOptions, menu, play

    settings = Settings.load()  # menus, saves and settings: docs/window.md
    try:
        width, height = (
            settings.window_size
            if args.size is None
            else (int(v) for v in str(args.size).lower().split("x"))
        )
    except ValueError:
        print(f"error: --size {args.size}: expected WIDTHxHEIGHT, e.g. 1280x720", file=sys.stderr)
        return 2
    window = WindowOptions(
        size=(max(800, width), max(560, height)),
        frames=args.frames,
        screenshot=Path(args.screenshot) if args.screenshot else None,
    )
    if getattr(args, "plain", False) and _has_saves():
        return menu(window, settings)  # a newcomer (no saves yet) plays the demo at once
    return play(
        Path(args.map) if getattr(args, "map", None) else DEMO_MAP,
        sides=tuple(args.side),
        computer=tuple(args.computer),
        seed=args.seed,
        journal=Path(args.journal) if args.journal else None,
        ruleset=getattr(args, "ruleset", None),
        window=window,
        settings=settings,
    )


def _has_saves() -> bool:
    from game.app.saves import saves_dir

    try:
        return any(p.name.endswith(".jsonl") for p in saves_dir().iterdir())
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
