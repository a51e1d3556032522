"""The player's settings: defaults from the system, kept in a JSON file written atomically, and a
damaged or partly wrong file read as far as it is right, with a notice naming the file and field."""

from __future__ import annotations

import json
import locale
import os
from pathlib import Path

import pytest

from game.app.settings import MAX_FILE, Settings, default_path, key_conflict, system_language

#: A few of the window's actions and default keys (game/ui/keys.py), by pygame's key names.
DEFAULTS = {
    "move": ("m",),
    "attack": ("x",),
    "ready": ("y",),
    "mode": ("n",),
    "take": ("y",),
    "let_go": ("n",),
    "end_turn": ("return", "enter"),
}


@pytest.fixture(autouse=True)
def _no_language_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TESSERA_LANG", raising=False)
    monkeypatch.setenv("LANG", "C")
    monkeypatch.setattr(locale, "getlocale", lambda *a: (None, None))


def test_the_language_is_tessera_lang_when_set_whatever_the_system_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert system_language({"TESSERA_LANG": "it", "LANG": "en_GB.UTF-8"}) == "it"
    assert system_language({"TESSERA_LANG": "en", "LANG": "it_IT.UTF-8"}) == "en"
    # Only English and Italian are spoken: another language asked for is English.
    assert system_language({"TESSERA_LANG": "fr"}) == "en"


def test_without_tessera_lang_an_italian_system_locale_or_lang_speaks_italian(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert system_language({"LANG": "it_IT.UTF-8"}) == "it"
    assert system_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert system_language({}) == "en"
    monkeypatch.setattr(locale, "getlocale", lambda *a: ("it_CH", "UTF-8"))
    assert system_language({"LANG": "C"}) == "it"


def test_with_no_file_the_settings_are_the_defaults_and_nothing_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TESSERA_LANG", "it")
    settings = Settings.load(tmp_path / "settings.json")
    assert settings.language == "it"  # from TESSERA_LANG, set after the module was imported
    assert settings.window_size == (1280, 720)
    assert (settings.fullscreen, settings.ui_scale, settings.animation_speed) == (False, 1.0, 1.0)
    assert dict(settings.keys) == {}
    assert settings.notices == ()


def test_saved_settings_are_read_back_equal_by_a_new_load(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "settings.json"
    chosen = Settings(
        language="it",
        window_size=(1600, 900),
        fullscreen=True,
        ui_scale=1.25,
        animation_speed=0.0,
        keys={"move": ("g",), "end_turn": ("space",)},
    )
    chosen.save(path)
    again = Settings.load(path)
    assert again == chosen
    assert again.notices == ()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["window_size"] == [1600, 900] and data["keys"]["move"] == ["g"]


def test_the_file_lives_in_the_users_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    Settings(language="en", ui_scale=1.5).save()
    assert default_path() == tmp_path / "config" / "tessera" / "settings.json"
    assert Settings.load().ui_scale == 1.5


def test_saving_replaces_the_file_whole_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    Settings(language="en").save(path)
    Settings(language="it").save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]
    assert Settings.load(path).language == "it"


def test_a_save_that_fails_before_the_rename_leaves_the_old_settings_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    Settings(language="en", ui_scale=1.25).save(path)
    before = path.read_bytes()

    def no_rename(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(OSError):
        Settings(language="it", ui_scale=1.5).save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_a_file_that_is_not_json_gives_the_defaults_and_a_notice_naming_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"language": "it", "ui_scale": 1.2', encoding="utf-8")  # torn
    settings = Settings.load(path)
    assert settings == Settings(language="en")
    assert len(settings.notices) == 1
    assert str(path) in settings.notices[0] and "not JSON" in settings.notices[0]


def test_a_file_that_is_not_an_object_gives_the_defaults_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("[1, 2]", encoding="utf-8")
    settings = Settings.load(path)
    assert settings == Settings(language="en")
    assert settings.notices and str(path) in settings.notices[0]


def test_a_file_that_is_not_utf8_text_gives_the_defaults_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"language": "\xff"}')
    settings = Settings.load(path)
    assert settings == Settings(language="en")
    assert settings.notices and str(path) in settings.notices[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("kind", ["fifo", "zero", "folder"])
def test_a_settings_file_that_is_not_a_regular_file_is_not_read(tmp_path: Path, kind: str) -> None:
    """A FIFO (reading it would wait for a writer for ever), a link to /dev/zero (reading it
    would never end and fill the memory), a folder: the defaults, with a notice. No timer: a
    load that waited would never finish."""
    path = tmp_path / "settings.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    settings = Settings.load(path)
    assert settings == Settings(language="en")
    (notice,) = settings.notices
    assert str(path) in notice and "not a regular file" in notice


def test_a_settings_file_of_more_than_a_megabyte_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"language": "it"' + " " * MAX_FILE + "}", encoding="utf-8")
    settings = Settings.load(path)
    assert settings == Settings(language="en")
    assert settings.notices and f"larger than {MAX_FILE} bytes" in settings.notices[0]


def test_a_settings_file_that_is_a_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    """Settings kept elsewhere and linked in (dotfiles) are the player's: read as usual."""
    real = tmp_path / "dotfiles" / "tessera.json"
    real.parent.mkdir()
    real.write_text('{"language": "it"}', encoding="utf-8")
    path = tmp_path / "settings.json"
    path.symlink_to(real)
    assert Settings.load(path).language == "it"


def test_each_wrong_field_takes_its_default_with_a_notice_and_the_right_ones_are_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "language": "fr",
                "window_size": [320, 200],
                "fullscreen": "yes",
                "ui_scale": 3,
                "animation_speed": 0.5,
                "keys": {"move": ["g"], "attack": 7},
                "colour": "blue",
            }
        ),
        encoding="utf-8",
    )
    settings = Settings.load(path)
    assert settings.language == "en"
    assert settings.window_size == (1280, 720)
    assert settings.fullscreen is False
    assert settings.ui_scale == 1.0
    assert settings.animation_speed == 0.5  # right: kept
    assert dict(settings.keys) == {"move": ("g",)}  # attack's entry was wrong: its default
    named = {
        field: [n for n in settings.notices if f"'{field}'" in n]
        for field in ("language", "window_size", "fullscreen", "ui_scale", "keys.attack", "colour")
    }
    assert all(len(found) == 1 for found in named.values()), settings.notices
    assert all(str(path) in n for n in settings.notices)
    assert len(settings.notices) == 6


def test_a_boolean_or_a_number_close_to_an_offered_one_is_read_as_it_should_be(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"ui_scale": true, "animation_speed": 2}', encoding="utf-8")
    settings = Settings.load(path)
    assert settings.ui_scale == 1.0 and any("'ui_scale'" in n for n in settings.notices)
    assert settings.animation_speed == 2.0 and len(settings.notices) == 1


def test_a_key_that_pans_the_map_is_refused_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"keys": {"move": ["W"]}}', encoding="utf-8")
    settings = Settings.load(path)
    assert dict(settings.keys) == {}
    assert any("'keys.move'" in n and str(path) in n for n in settings.notices)


def test_bindings_lay_the_players_keys_over_the_defaults() -> None:
    settings = Settings(language="en", keys={"move": ("g",)})
    bindings, notices = settings.bindings(DEFAULTS)
    assert bindings["move"] == ("g",)
    assert bindings["attack"] == ("x",) and bindings["end_turn"] == ("return", "enter")
    assert notices == ()


def test_a_key_another_action_uses_at_the_same_time_keeps_the_changed_action_on_its_default(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"keys": {"move": ["x"]}}', encoding="utf-8")
    bindings, notices = Settings.load(path).bindings(DEFAULTS)
    assert bindings["move"] == ("m",) and bindings["attack"] == ("x",)
    assert len(notices) == 1
    assert str(path) in notices[0] and "'keys.move'" in notices[0] and "attack" in notices[0]


def test_two_actions_may_swap_their_keys() -> None:
    bindings, notices = Settings(language="en", keys={"move": ("x",), "attack": ("m",)}).bindings(
        DEFAULTS
    )
    assert (bindings["move"], bindings["attack"]) == (("x",), ("m",))
    assert notices == ()


def test_an_action_the_window_does_not_have_is_reported_and_ignored() -> None:
    bindings, notices = Settings(language="en", keys={"fly": ("g",)}).bindings(DEFAULTS)
    assert "fly" not in bindings
    assert len(notices) == 1 and "'keys.fly'" in notices[0]


def test_the_reaction_prompts_keys_may_be_the_boards_keys_but_not_each_others() -> None:
    # Y readies a shot on the board and takes a reaction in the prompt: never asked together.
    assert key_conflict(DEFAULTS, "take", "y") is None
    assert key_conflict(DEFAULTS, "ready", "y") is None
    assert key_conflict(DEFAULTS, "take", "n") == ("used", "let_go")
    assert key_conflict(DEFAULTS, "move", "N") == ("used", "mode")
    assert key_conflict(DEFAULTS, "move", "enter") == ("used", "end_turn")
    assert key_conflict(DEFAULTS, "move", "left") == ("reserved", None)
    assert key_conflict(DEFAULTS, "move", "left shift") == ("reserved", None)
    assert key_conflict(DEFAULTS, "move", "m") is None  # its own key


def test_with_keys_keeps_only_what_differs_from_the_defaults() -> None:
    names = dict(DEFAULTS) | {"move": ("g",)}
    settings = Settings(language="en").with_keys(names, DEFAULTS)
    assert dict(settings.keys) == {"move": ("g",)}
    assert settings.with_keys(DEFAULTS, DEFAULTS).keys == {}
