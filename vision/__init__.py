"""Seeing the card: locating it in the box's window, telling when it changes and rests,
naming it, learning a deck, and simulating the camera's view for the demo and the tests.

Imports OpenCV and numpy only.
"""
