"""Frames in, card readings out: numpy and OpenCV only."""
