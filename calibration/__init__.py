"""Calibration: fitting the camera view of the board to the grid of squares."""
