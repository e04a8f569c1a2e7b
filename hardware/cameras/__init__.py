"""Camera backends behind :class:`hardware.camera.Camera`; :func:`hardware.camera.open_camera`
picks one from the ``camera.source`` setting."""
