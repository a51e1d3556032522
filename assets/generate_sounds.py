"""Synthesise the game's sound effects (assets/sounds/*.wav) with numpy: made by the project,
CC0. Run `python assets/generate_sounds.py` to write them again; the same code gives the same bytes."""

from __future__ import annotations

import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

RATE = 22050
OUT = Path(__file__).resolve().parent / "sounds"
Wave = NDArray[np.float64]


def _time(seconds: float) -> Wave:
    return np.arange(int(RATE * seconds)) / RATE


def _noise(seconds: float, seed: int) -> Wave:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, int(RATE * seconds))


def _lowpass(signal: Wave, keep: float) -> Wave:
    """A one-pole low-pass filter: `keep` near 1 is darker."""
    out = np.empty_like(signal)
    level = 0.0
    for i, sample in enumerate(signal):
        level = keep * level + (1 - keep) * sample
        out[i] = level
    return out


def _envelope(t: Wave, attack: float, decay: float) -> Wave:
    rise = np.clip(t / attack, 0.0, 1.0) if attack > 0 else np.ones_like(t)
    return rise * np.exp(-t / decay)


def shot() -> Wave:
    """A sharp crack over a low thump: a gunshot heard through a helmet."""
    t = _time(0.45)
    crack = _noise(0.45, 1) * _envelope(t, 0.001, 0.03)
    thump = np.sin(2 * np.pi * (110 - 60 * t) * t) * _envelope(t, 0.002, 0.09)
    tail = _lowpass(_noise(0.45, 2), 0.92) * _envelope(t, 0.01, 0.15) * 2.5
    return crack * 0.8 + thump * 0.7 + tail * 0.5


def hit() -> Wave:
    """A dull impact: a low knock and a short burst of grit."""
    t = _time(0.35)
    knock = np.sin(2 * np.pi * 70 * t) * _envelope(t, 0.001, 0.08)
    grit = _lowpass(_noise(0.35, 3), 0.6) * _envelope(t, 0.001, 0.04)
    return knock * 0.9 + grit * 0.8


def miss() -> Wave:
    """A whistle passing by and a ricochet's ping."""
    t = _time(0.5)
    whoosh = _lowpass(_noise(0.5, 4), 0.8) * np.sin(np.pi * np.clip(t / 0.3, 0, 1)) * 1.5
    ping = np.sin(2 * np.pi * (2400 - 1400 * t) * t) * _envelope(t - 0.18, 0.0, 0.08)
    ping[t < 0.18] = 0.0
    return whoosh * 0.6 + ping * 0.35


def wound() -> Wave:
    """A low falling growl for a wound taken."""
    t = _time(0.5)
    pitch = 160 - 90 * t
    phase = 2 * np.pi * np.cumsum(pitch) / RATE
    growl = np.sign(np.sin(phase)) * 0.4 + np.sin(phase * 0.5) * 0.6
    return _lowpass(growl, 0.85) * _envelope(t, 0.02, 0.18) * 1.6


def down() -> Wave:
    """Two falling tones: a unit out of the fight."""
    t = _time(0.8)
    first = np.sin(2 * np.pi * 330 * t) * _envelope(t, 0.01, 0.15)
    second = np.sin(2 * np.pi * 220 * t) * _envelope(t - 0.25, 0.01, 0.25)
    second[t < 0.25] = 0.0
    return (first + second) * 0.5


def dice() -> Wave:
    """Dice rattling on a table: a few bright clicks."""
    t = _time(0.5)
    out = np.zeros_like(t)
    for i, start in enumerate((0.0, 0.07, 0.15, 0.21, 0.3, 0.36)):
        click = _noise(0.5, 10 + i) * _envelope(t - start, 0.0, 0.006)
        click[t < start] = 0.0
        out += click * (0.9 - i * 0.1)
    return _lowpass(out, 0.3)


def step() -> Wave:
    """A soft footstep on a deck plate."""
    t = _time(0.15)
    return _lowpass(_noise(0.15, 20), 0.9) * _envelope(t, 0.002, 0.03) * 3.0


def click() -> Wave:
    """A short interface blip."""
    t = _time(0.06)
    return np.sin(2 * np.pi * 1200 * t) * _envelope(t, 0.001, 0.015)


SOUNDS: dict[str, Callable[[], Wave]] = {
    "shot": shot,
    "hit": hit,
    "miss": miss,
    "wound": wound,
    "down": down,
    "dice": dice,
    "step": step,
    "click": click,
}


def write(name: str, signal: Wave) -> Path:
    peak = float(np.max(np.abs(signal))) or 1.0
    pcm = np.round(signal / peak * 0.8 * 32767).astype("<i2")
    path = OUT / f"{name}.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())
    return path


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        print(write(name, make()))


if __name__ == "__main__":
    main()
