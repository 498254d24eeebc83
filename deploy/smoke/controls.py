#!/usr/bin/env python3
"""Smoke check on a real Pi: light each LED, sound the buzzer, then wait for a press and a hold.

    sudo systemctl stop tucana
    /opt/tucana/venv/bin/python /opt/tucana/deploy/smoke/controls.py

The pins are the ones in the settings file ([pins]), so this also checks your wiring against it.
With --gpio mock (off a Pi) the script presses and holds the mock button itself.
"""

from __future__ import annotations

import queue
import sys
import time

import _common

LED_SECONDS = 1.0  # each LED stays lit this long: enough to see which one it is
BUTTON_SECONDS = 30.0  # time given to press, then hold, the button
MOCK_PRESS_S = 0.2  # a short press on the mock button
MOCK_HOLD_MARGIN_S = 0.5  # the mock button is held this much longer than the hold time


def check_leds(controls: object, pins: object, seconds: float) -> bool:
    """Light each LED in turn and read its pin back; True when every pin went high then low."""
    from hardware.controls import Light, LightMode

    ok = True
    for light in Light:
        pin = getattr(pins, f"led_{light.value}")
        controls.light(light, LightMode.ON)
        high = controls.leds[light].is_lit
        print(f"LED {light.value:<6} GPIO{pin:<3} on  -> pin {'high' if high else 'LOW (fault)'}")
        time.sleep(seconds)
        controls.light(light, LightMode.OFF)
        low = not controls.leds[light].is_lit
        ok = ok and high and low
    return ok


def check_buzzer(controls: object, pins: object) -> None:
    """Sound the round-end pattern and wait for it to finish."""
    from hardware.controls import BEEPS, BuzzPattern

    beep = BEEPS[BuzzPattern.ROUND_END]
    print(f"buzzer GPIO{pins.buzzer}: {beep.count} beeps (the round-end reminder)")
    controls.buzz(BuzzPattern.ROUND_END)
    time.sleep(beep.duration_s + 0.2)


def press_mock_button(controls: object, hold_s: float) -> None:
    """Off a Pi: drive the mock pin as a thumb would, a short press then a long one."""
    pin = controls.button.pin
    for seconds in (MOCK_PRESS_S, hold_s + MOCK_HOLD_MARGIN_S):
        pin.drive_low()
        time.sleep(seconds)
        pin.drive_high()
        time.sleep(MOCK_PRESS_S)


def check_button(controls: object, pins: object, seconds: float, mock: bool) -> bool:
    """Wait for one press and one hold; True when both came within `seconds`."""
    from hardware.controls import ButtonAction
    from hardware.gpio import HOLD_S

    actions: queue.Queue = queue.Queue()
    controls.on_button(actions.put)  # gpiozero's thread only queues, as in the companion
    print(f"button GPIO{pins.button}: press it once, then hold it {HOLD_S:.1f} s (undo) "
          f"within {seconds:.0f} s")
    if mock:
        press_mock_button(controls, HOLD_S)
    wanted = {ButtonAction.PRESS, ButtonAction.HOLD}
    deadline = time.monotonic() + seconds
    while wanted and time.monotonic() < deadline:
        try:
            action = actions.get(timeout=0.1)
        except queue.Empty:
            continue
        print(f"button: {action.value}")
        wanted.discard(action)
    for action in wanted:
        print(f"button: no {action.value} seen")
    return not wanted


def main(argv: list[str] | None = None) -> int:
    """Run the checks; exit 0 when the LEDs read back and the button gave a press and a hold."""
    parser = _common.base_parser(__doc__.splitlines()[0])
    parser.add_argument("--gpio", choices=("real", "mock"), help="default: from the settings")
    parser.add_argument("--seconds", type=float, default=BUTTON_SECONDS, help="time for the button")
    parser.add_argument("--led-seconds", type=float, default=LED_SECONDS, help="time each LED is lit")
    args = parser.parse_args(argv)
    try:
        from hardware.config import parse_gpio_mode
        from hardware.gpio import GpioControls

        chosen = _common.settings(args, gpio=args.gpio)
        mode = parse_gpio_mode(str(chosen.gpio))
        print(f"GPIO {mode.value}, pins from {chosen.source or 'the built-in defaults'}")
        controls = GpioControls(chosen.pins, mode)
    except (_common.ConfigError, _common.HardwareError) as error:
        return _common.fail(error)
    try:
        leds_ok = check_leds(controls, chosen.pins, args.led_seconds)
        check_buzzer(controls, chosen.pins)
        button_ok = check_button(controls, chosen.pins, args.seconds, mode.value == "mock")
    finally:
        controls.close()
    print("all good" if leds_ok and button_ok else "something did not answer: check the wiring")
    return _common.EXIT_OK if leds_ok and button_ok else _common.EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
