"""Speech: the pages' phrases in three languages, a worker that never blocks, espeak-ng to a wav file."""

from __future__ import annotations

import shutil
import threading
import wave

import pytest

from companion.moves import Terrain
from hardware.config import Language, PinMap
from hardware.rig import build_rig
from hardware.speech import EspeakSpeaker, FakeSpeaker, espeak_command, phrase_keys, speak_to_wav
from web.i18n import phrasebook

D, W = Terrain.DESERT, Terrain.WATER
WAIT_S = 30.0  # the longest a test waits for the speech thread: generous for a busy CI machine


@pytest.mark.parametrize(
    ("language", "text"),
    [(Language.EN, "Desert and water!"), (Language.FR, "Désert et eau\u00a0!"), (Language.ES, "¡Desierto y agua!")],
)
def test_the_reveal_is_spoken_in_the_pages_words(language, text):
    """The reveal is the rulebook's announcement, in sentence case, from the pages' catalogue."""
    assert phrasebook(language.value)("announce.pair", a=D, b=W) == text


@pytest.mark.parametrize("language", list(Language))
def test_every_reminder_exists_in_every_language(language):
    """The last-turn, round-end, Mayor and game-end phrases exist in each language's catalogue."""
    say = phrasebook(language.value)
    for key in ("speech.last_turn", "speech.round_end"):
        assert "2" in say(key, n=2) and not say(key, n=2).startswith("speech.")
    assert say("speech.mayor") != "speech.mayor" and say("speech.game_end") != "speech.game_end"


def test_french_speech_says_curiosites_as_the_pages_do():
    """The round-end reminder names the sights as the French pages do: curiosités, not sites."""
    assert "curiosités" in phrasebook("fr")("speech.round_end", n=1)
    assert "curiosités" in phrasebook("fr")("banner.round_end", n=1, box="I")


def test_without_the_pages_words_the_rig_keeps_quiet(table):
    """A phrasebook without words says the keys; a rig built without one makes no sound."""
    assert phrase_keys("announce.pair", a=D, b=W) == "announce.pair a=desert b=water"
    with build_rig("none", "mock", PinMap(), "en", table) as rig:
        assert isinstance(rig.speaker, FakeSpeaker)


def test_espeak_command_picks_the_voice():
    """The espeak-ng command picks the language's voice and never reads the text as an option."""
    assert espeak_command("Hola", Language.ES)[:3] == ["espeak-ng", "-v", "es"]
    assert espeak_command("-x", Language.FR)[-2:] == ["--", "-x"]  # text never read as an option


def test_say_returns_at_once_while_a_phrase_is_being_spoken():
    """say() never blocks; during speech only the newest three phrases wait, older ones drop."""
    release = threading.Event()
    started = threading.Event()
    commands: list[list[str]] = []

    def slow_runner(command: list[str]) -> None:
        """Record the command and block until released, like a long phrase."""
        commands.append(command)
        started.set()
        release.wait(WAIT_S)

    speaker = EspeakSpeaker(Language.EN, runner=slow_runner)
    try:
        speaker.say("first")
        assert started.wait(WAIT_S)
        for n in range(10):  # a burst while the first phrase still plays: never blocks
            speaker.say(f"burst {n}")
        assert speaker.dropped == 7  # only the newest 3 wait
        release.set()
        assert speaker.wait_idle(WAIT_S)
        assert speaker.spoken == ["first", "burst 7", "burst 8", "burst 9"]
    finally:
        release.set()
        speaker.close()


def test_stale_announcements_are_dropped():
    """A phrase that waited longer than stale_s is dropped, not spoken late."""
    now = [0.0]
    gate, speaking = threading.Event(), threading.Event()

    def stuck_runner(command: list[str]) -> None:
        """Signal that speech began and block until the gate opens."""
        speaking.set()
        gate.wait(WAIT_S)

    speaker = EspeakSpeaker(Language.EN, runner=stuck_runner, clock=lambda: now[0], stale_s=5.0)
    try:
        speaker.say("old news")
        assert speaking.wait(WAIT_S)  # the worker is stuck speaking "old news"
        speaker.say("Desert and Water!")
        now[0] = 10.0  # the first phrase took ages: the waiting one is stale
        gate.set()
        assert speaker.wait_idle(WAIT_S)
        assert speaker.spoken == ["old news"]
        assert speaker.dropped == 1
    finally:
        gate.set()
        speaker.close()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (CI installs it)")
@pytest.mark.parametrize("language", list(Language))
def test_espeak_speaks_each_language_to_a_wav_file(tmp_path, language):
    """espeak-ng speaks the reveal in each language to a WAV of plausible length, not silence."""
    wav = speak_to_wav(phrasebook(language.value)("announce.pair", a=D, b=W), language, tmp_path / "say.wav")
    with wave.open(str(wav)) as audio:
        seconds = audio.getnframes() / audio.getframerate()
        samples = audio.readframes(audio.getnframes())
    assert 0.3 < seconds < 5
    assert max(samples) > 0  # not silence
