"""Camera sources, gpiozero controls, speech and the scanner loop; each part an interface with a real adapter and a fake."""
