"""Spoken announcements: speakers that never block, saying the pages' own phrases (a Phrasebook)."""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from hardware.config import Language
from hardware.errors import HardwareError

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
VOICES = {Language.EN: "en", Language.FR: "fr-fr", Language.ES: "es"}
SPEECH_RATE_WPM = 150  # espeak-ng words per minute: a little slower than its 175 default, for a noisy table
SPEAK_TIMEOUT_S = 15.0  # one phrase never takes this long; a hung audio device must not hang the worker
STALE_S = 8.0  # an announcement still waiting after this many seconds is old news: dropped
MAX_WAITING = 3  # at most this many phrases wait; a burst drops the oldest first

class Phrasebook(Protocol):
    """The words for a phrase key in the speaker's language.

    The words are the pages' own (web/translations: "announce.pair", "speech.last_turn", ...): web
    passes them in, so what is spoken and what is shown never differ. Terrain and Sight parameters
    are named in that language by the phrasebook.
    """

    def __call__(self, key: str, /, **params: object) -> str:
        """The phrase for key with params filled in."""
        ...


def phrase_keys(key: str, /, **params: object) -> str:
    """A phrasebook without words, for tools that run the rig without the pages: 'key a=b'."""
    shown = " ".join(f"{name}={getattr(value, 'value', value)}" for name, value in params.items())
    return f"{key} {shown}".strip()


class Speaker(Protocol):
    """Something that says phrases aloud without making the caller wait."""

    language: Language

    def say(self, text: str) -> None:
        """Queue text to be spoken; returns at once."""
        ...

    def close(self) -> None:
        """Stop speaking and release the worker."""
        ...


class FakeSpeaker:
    """Records what would have been said."""

    def __init__(self, language: Language = Language.EN) -> None:
        self.language = language
        self.said: list[str] = []

    def say(self, text: str) -> None:
        """Record the text."""
        self.said.append(text)

    def close(self) -> None:
        """Nothing to release."""


def espeak_command(text: str, language: Language, *, wav: Path | None = None) -> list[str]:
    """The espeak-ng command line that speaks text (or writes it to a wav file)."""
    command = [ESPEAK, "-v", VOICES[language], "-s", str(SPEECH_RATE_WPM)]
    if wav is not None:
        command += ["-w", str(wav)]
    return command + ["--", text]


def espeak_available() -> bool:
    """True when espeak-ng is on the PATH."""
    return shutil.which(ESPEAK) is not None


def speak_to_wav(text: str, language: Language, wav: Path) -> Path:
    """Synthesise text into a wav file with espeak-ng; HardwareError when it cannot."""
    try:
        subprocess.run(espeak_command(text, language, wav=wav), check=True, capture_output=True, timeout=SPEAK_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        raise HardwareError(f"espeak-ng could not speak {text!r}: {exc}") from exc
    return wav


Runner = Callable[[list[str]], None]


def _run_espeak(command: list[str]) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=SPEAK_TIMEOUT_S)


class EspeakSpeaker:
    """Speaks through espeak-ng in its own thread; a burst keeps the newest phrases, old ones drop."""

    def __init__(
        self,
        language: Language = Language.EN,
        *,
        runner: Runner = _run_espeak,
        clock: Callable[[], float] = time.monotonic,
        stale_s: float = STALE_S,
    ) -> None:
        self.language = language
        self.dropped = 0
        self.spoken: list[str] = []
        self._runner = runner
        self._clock = clock
        self._stale_s = stale_s
        self._waiting: deque[tuple[float, str]] = deque()
        self._cond = threading.Condition()
        self._busy = False
        self._closing = False
        self._thread = threading.Thread(target=self._work, name="tucana-speech", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Queue text; when MAX_WAITING phrases already wait, the oldest is dropped."""
        with self._cond:
            if self._closing:
                return
            if len(self._waiting) >= MAX_WAITING:
                self._waiting.popleft()
                self.dropped += 1
            self._waiting.append((self._clock(), text))
            self._cond.notify_all()

    def _next(self) -> str | None:
        """The next phrase still fresh enough to say, or None when closing."""
        with self._cond:
            while True:
                self._cond.wait_for(lambda: self._waiting or self._closing)
                if self._closing:
                    return None
                stamp, text = self._waiting.popleft()
                if self._clock() - stamp <= self._stale_s:
                    self._busy = True
                    return text
                self.dropped += 1
                self._cond.notify_all()

    def _work(self) -> None:
        while (text := self._next()) is not None:
            try:
                self._runner(espeak_command(text, self.language))
                self.spoken.append(text)
            except (OSError, subprocess.SubprocessError) as exc:
                log.warning("espeak-ng failed on %r: %s", text, exc)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def wait_idle(self, timeout_s: float = 5.0) -> bool:
        """Wait until every queued phrase was spoken or dropped (for tests and shutdown)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._waiting and not self._busy, timeout_s)

    def close(self) -> None:
        """Let the phrase being spoken finish, drop the rest, stop the thread."""
        with self._cond:
            self._closing = True
            self._waiting.clear()
            self._cond.notify_all()
        self._thread.join(timeout=SPEAK_TIMEOUT_S)


def make_speaker(language: Language, *, enabled: bool = True) -> Speaker:
    """espeak-ng when installed and wanted, else a speaker that stays silent (and records)."""
    if enabled and espeak_available():
        return EspeakSpeaker(language)
    if enabled:
        log.info("espeak-ng is not installed: announcements are shown, not spoken")
    return FakeSpeaker(language)
