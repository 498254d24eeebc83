"""Camera sources, gpiozero controls, speech and the scanner loop; each part an interface with a real adapter and a fake.

Wiring for `tucana serve` (web/services.py or web/rig.py)::

    from hardware.config import PinMap
    from hardware.rig import build_rig

    rig = build_rig(camera_spec, gpio, pins, language, table, clock, rng, phrases=phrasebook)
    rig.start()      # desk worker thread + scanner thread (no scanner for camera "none")
    ...
    rig.close()      # stops threads, releases camera, pins and speech

    camera_spec  "virtual" | "none" | "picamera" | "usb:N" | "folder:PATH"  (or a CameraSpec)
    gpio         "auto" | "mock" | "real"  (or hardware.config.GpioMode); mock = gpiozero's MockFactory,
                 auto = real pins on a Raspberry Pi, mock ones elsewhere
    pins         hardware.config.PinMap(button=17, led_ready=22, led_seen=23, led_mayor=24, buzzer=25)
    language     "en" | "fr" | "es"  (spoken announcements through espeak-ng when installed)
    phrasebook   the words spoken: web passes the pages' catalogue (web.i18n.phrasebook); none: silent
    table        companion.table.Table: the desk thread is the only hardware code that submits to it
    clock, rng   time.monotonic-like callable; random.Random for the virtual table's shuffles

Bad values raise hardware.errors.ConfigError; a camera or pins that will not open raise
hardware.errors.HardwareError (a camera lost later is reopened with backoff while the game goes on by hand).

The web console's side of a Rig (every call is handled by the desk thread):
    rig.status() -> RigStatus   one immutable snapshot; .to_json(): camera, camera_ok, scanner
                                {fps, frames, readings, ...}, stable, half_read, reading, pending
                                {entry, reason, code, params, acceptable} | None, note {key, params},
                                lights, virtual, virtual_cards, language (web/API.md)
    rig.subscribe(fn)           fn(RigStatus) on every change, from the desk thread
    rig.snapshot_jpeg(), rig.crop_jpeg()      newest frame / last reading's cards, as JPEG bytes
    rig.has_virtual_table, rig.lay(card_ids), rig.lay_next()   the virtual table
    rig.press(), rig.hold()     the Mayor's button: confirm or lay next / dismiss, drop or undo
    rig.confirm(), rig.dismiss(), rig.correct(entry)   resolve a reading waiting for the Mayor

Modules: config (specs, pins, modes), camera (interface + factory), camera_cv (usb:N, folder:PATH),
camera_pi (picamera2, imported only there), virtual_table, eyes (vision reader + change gate +
vision's Voter), scanner (the loop), meaning (cards -> entries by phase), desk (the one worker), controls
(interface + fake), gpio (gpiozero, imported only there), speech (espeak-ng + fake), rig (wiring).
"""
