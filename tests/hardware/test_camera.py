"""Camera backends over real video and image files written with OpenCV, the simulated
camera over gnome-cards-data faces; picamera2 mocked."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from types import ModuleType
from unittest.mock import MagicMock

import cv2
import numpy as np
import pytest
from pytest_mock import MockerFixture

from hardware.camera import (
    Camera,
    CameraStatus,
    FpsMeter,
    ReconnectingCamera,
    open_camera,
)
from hardware.cameras.folder import ImageFolderCamera
from hardware.cameras.opencv import VideoFileCamera
from hardware.cameras.simulated import SimulatedCamera
from hardware.errors import CameraConfigError, CameraUnavailableError, UnknownDriverError
from shoe.cards import FULL_DECK, Card

SIZE = (64, 48)  # width, height


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def picture(level: int) -> np.ndarray:
    """A frame whose brightness says which one it is."""
    return np.full((SIZE[1], SIZE[0], 3), level, np.uint8)


def level_of(image: np.ndarray) -> int:
    """The frame's brightness to the nearest 10 (MJPEG shifts it by a level or two)."""
    return round(float(image.mean()) / 10) * 10


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "deal.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 25.0, SIZE)
    assert writer.isOpened()
    for n in range(10):
        writer.write(picture(20 + 20 * n))
    writer.release()
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    frames = tmp_path / "frames"
    frames.mkdir()
    for name, level in [("0002.png", 120), ("0000.png", 40), ("0001.jpg", 80)]:
        assert cv2.imwrite(str(frames / name), picture(level))
    (frames / "notes.txt").write_text("not an image")
    return frames


def test_video_file_gives_every_frame_in_order_with_its_time_then_ends(video: Path) -> None:
    camera = VideoFileCamera(video, pace=0)
    frames = list(camera.frames())
    assert [level_of(f.image) for f in frames] == [20 + 20 * n for n in range(10)]
    assert [f.index for f in frames] == list(range(10))
    assert [f.t for f in frames] == pytest.approx([n / 25 for n in range(10)])
    assert frames[0].image.shape == (SIZE[1], SIZE[0], 3)
    assert camera.read() is None
    camera.close()


def test_video_file_in_real_time_is_held_back_to_its_fps(video: Path) -> None:
    time = FakeTime()
    camera = VideoFileCamera(video, pace=1.0, sleep=time.sleep, clock=time.clock)
    start = time.now
    list(camera.frames())
    assert time.now - start == pytest.approx(9 / 25)
    double = FakeTime()
    camera = VideoFileCamera(video, pace=2.0, sleep=double.sleep, clock=double.clock)
    list(camera.frames())
    assert double.now - 100.0 == pytest.approx(9 / 50)


def test_video_file_can_loop(video: Path) -> None:
    camera = VideoFileCamera(video, pace=0, loop=True)
    levels = [level_of(camera.read().image) for _ in range(12)]  # type: ignore[union-attr]
    assert levels[10:] == levels[:2]


def test_folder_plays_its_images_in_name_order_skipping_the_unreadable(
    folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (folder / "0003.png").write_bytes(b"not a png")
    camera = ImageFolderCamera(folder, fps=10, pace=0)
    frames = list(camera.frames())
    assert [level_of(f.image) for f in frames] == [40, 80, 120]
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert "0003.png" in caplog.text


def test_fps_is_measured_from_arrivals() -> None:
    time = FakeTime()
    meter = FpsMeter(window=10, clock=time.clock)
    assert meter.fps == 0.0
    for _ in range(10):
        meter.tick()
        time.now += 1 / 30
    assert meter.fps == pytest.approx(30)


def test_open_camera_picks_the_backend_from_the_source(video: Path, folder: Path) -> None:
    for source in (f"file:{video}", str(video)):
        camera = open_camera(source, pace=0, reconnect=False)
        assert isinstance(camera, VideoFileCamera)
        camera.close()
    for source in (f"folder:{folder}", str(folder)):
        camera = open_camera(source, pace=0, reconnect=False)
        assert isinstance(camera, ImageFolderCamera)
        camera.close()


@pytest.mark.parametrize(
    ("source", "error", "words"),
    [
        ("webcam", UnknownDriverError, "camera.source: 'webcam' is not a camera"),
        ("usb:first", CameraConfigError, "camera.source: 'first' is not a number"),
        ("file:/nowhere/deal.avi", CameraConfigError, "camera.path: no video file"),
        ("folder:/nowhere", CameraConfigError, "camera.path: no folder"),
    ],
)
def test_bad_sources_are_refused_at_startup_naming_the_setting(
    source: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        open_camera(source)


def test_empty_folder_and_bad_size_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CameraConfigError, match="no images"):
        open_camera(f"folder:{tmp_path}")
    with pytest.raises(CameraConfigError, match=r"camera\.width/height"):
        open_camera("usb:0", width=0)
    with pytest.raises(CameraConfigError, match=r"camera\.fps"):
        open_camera("sim", fps=0)


def test_missing_device_is_reported_and_retried_not_raised() -> None:
    statuses: list[CameraStatus] = []
    camera = open_camera(
        "/dev/video-none-here", reconnect=True, on_status=lambda s, m: statuses.append(s)
    )
    assert isinstance(camera, ReconnectingCamera)
    assert camera.read() is None
    assert statuses == [CameraStatus.LOST]
    camera.close()
    with pytest.raises(CameraUnavailableError):
        open_camera("/dev/video-none-here", reconnect=False)


class FlakyCamera(Camera):
    """A real video file that dies (as an unplugged camera does) after ``lives`` frames."""

    def __init__(self, path: Path, lives: int) -> None:
        super().__init__()
        self._video = VideoFileCamera(path, pace=0)
        self._lives = lives

    def _grab(self) -> tuple[np.ndarray, float] | None:
        if self._lives == 0:
            raise CameraUnavailableError("unplugged")
        self._lives -= 1
        frame = self._video.read()
        return None if frame is None else (frame.image, frame.t)


def test_lost_camera_is_reported_and_reopened_with_backoff(video: Path) -> None:
    time = FakeTime()
    reports: list[tuple[CameraStatus, str]] = []
    attempts: list[float] = []
    plan = iter([None, None, 3, None, 50])  # None: cannot open; n: opens, dies after n

    def opener() -> Camera:
        attempts.append(time.now)
        lives = next(plan)
        if lives is None:
            raise CameraUnavailableError("not there")
        return FlakyCamera(video, lives)

    camera = ReconnectingCamera(
        opener, on_status=lambda s, m: reports.append((s, m)), backoff=0.5, max_backoff=4,
        poll=10, sleep=time.sleep, clock=time.clock,
    )
    frames = []
    for _ in range(40):
        frame = camera.read()
        if frame is not None:
            frames.append(frame)
        if len(frames) == 8:
            break
    assert len(frames) == 8
    assert [b - a for a, b in itertools.pairwise(attempts)] == pytest.approx(
        [0.5, 1.0, 0.5, 1.0]
    )
    assert [s for s, _ in reports] == [
        CameraStatus.LOST, CameraStatus.LOST, CameraStatus.RUNNING,
        CameraStatus.LOST, CameraStatus.LOST, CameraStatus.RUNNING,
    ]
    assert "unplugged" in reports[3][1]
    assert camera.losses == 1


def test_reconnecting_file_ends_and_frames_stop(video: Path) -> None:
    camera = open_camera(str(video), pace=0, reconnect=True)
    assert isinstance(camera, ReconnectingCamera)
    assert len(list(camera.frames())) == 10
    assert camera.status is CameraStatus.ENDED
    assert camera.read() is None


def test_reconnecting_camera_counts_its_frames_and_refuses_reads_once_closed(
        video: Path) -> None:
    camera = open_camera(str(video), pace=0, reconnect=True)
    assert [f.index for f in itertools.islice(camera.frames(), 3)] == [0, 1, 2]
    camera.close()
    with pytest.raises(CameraUnavailableError, match="closed"):
        camera.read()  # not reopened behind the caller's back


def fake_picamera2(mocker: MockerFixture) -> MagicMock:
    module = ModuleType("picamera2")
    cls = MagicMock(name="Picamera2")
    module.Picamera2 = cls  # type: ignore[attr-defined]
    mocker.patch.dict(sys.modules, {"picamera2": module})
    return cls


def test_picamera2_is_configured_for_bgr_video_and_gives_frames(mocker: MockerFixture) -> None:
    cls = fake_picamera2(mocker)
    device = cls.return_value
    request = device.capture_request.return_value
    request.make_array.return_value = picture(90)
    camera = open_camera("picamera2:1", width=320, height=240, fps=60, reconnect=False)
    cls.assert_called_once_with(1)
    kwargs = device.create_video_configuration.call_args.kwargs
    assert kwargs["main"] == {"size": (320, 240), "format": "RGB888"}
    assert kwargs["controls"]["FrameRate"] == 60
    device.configure.assert_called_once_with(device.create_video_configuration.return_value)
    device.start.assert_called_once()
    frame = camera.read()
    assert frame is not None and level_of(frame.image) == 90
    request.release.assert_called_once()
    camera.close()
    device.stop.assert_called_once()
    device.close.assert_called_once()


def test_picamera2_failure_mid_run_is_a_lost_camera(mocker: MockerFixture) -> None:
    cls = fake_picamera2(mocker)
    cls.return_value.capture_request.side_effect = RuntimeError("camera frontend timeout")
    statuses: list[CameraStatus] = []
    camera = open_camera("picamera2", reconnect=True, on_status=lambda s, m: statuses.append(s))
    assert camera.read() is None
    assert statuses == [CameraStatus.LOST]


def test_picamera2_absent_is_reported_not_raised(mocker: MockerFixture) -> None:
    mocker.patch.dict(sys.modules, {"picamera2": None})  # import picamera2 fails
    messages: list[str] = []
    camera = open_camera("picamera2", reconnect=True, on_status=lambda s, m: messages.append(m))
    assert camera.read() is None
    assert "python3-picamera2" in messages[0]
    with pytest.raises(CameraUnavailableError, match="not installed"):
        open_camera("picamera2", reconnect=False)


def test_open_camera_takes_the_configs_camera_section(video: Path, folder: Path) -> None:
    from shoe.config import CameraConfig

    camera = open_camera(CameraConfig(source="file", path=str(video)))
    assert isinstance(camera, VideoFileCamera) and camera.path == video
    camera.close()
    camera = open_camera(CameraConfig(source="images", path=str(folder), fps=10))
    assert isinstance(camera, ImageFolderCamera) and camera.source_fps == 10
    camera.close()
    with pytest.raises(CameraUnavailableError, match="/dev/video-none-here"):
        open_camera(CameraConfig(source="v4l2", device="/dev/video-none-here"))


@pytest.fixture(scope="module")
def anglo_faces() -> dict[Card, np.ndarray]:
    """The gnome-cards-data deck the simulated camera deals by default (rendered once)."""
    from vision.corpus import render_deck

    return render_deck("anglo", alpha=True)


def test_simulated_camera_deals_a_seeded_shuffle(anglo_faces: dict[Card, np.ndarray]) -> None:
    first = SimulatedCamera(seed=11, pace=0, faces=anglo_faces, width=320, height=240)
    again = SimulatedCamera(seed=11, pace=0, faces=anglo_faces, width=320, height=240)
    other = SimulatedCamera(seed=12, pace=0, faces=anglo_faces, width=320, height=240)
    assert sorted(first.cards, key=str) == sorted(FULL_DECK, key=str)
    assert first.cards == again.cards != other.cards
    a, b = first.read(), again.read()
    assert a is not None and b is not None
    assert a.image.shape == (240, 320, 3) and np.array_equal(a.image, b.image)


def test_simulated_camera_resumes_at_a_card_and_ends_with_the_deal(
    anglo_faces: dict[Card, np.ndarray],
) -> None:
    camera = SimulatedCamera(seed=4, pace=0, fps=20, start_at=51, faces=anglo_faces,
                             width=320, height=240)
    frames = list(camera.frames())
    assert frames[0].t == pytest.approx(camera.truth[51].rest[0])
    assert frames[-1].t <= camera.shoe.duration < frames[-1].t + 1 / 20
    assert camera.read() is None


def test_simulated_camera_in_real_time_keeps_to_its_fps(
    anglo_faces: dict[Card, np.ndarray],
) -> None:
    time = FakeTime()
    camera = SimulatedCamera(seed=4, fps=10, faces=anglo_faces, width=160, height=120,
                             sleep=time.sleep, clock=time.clock)
    start = time.now
    for _ in range(6):
        camera.read()
    assert time.now - start == pytest.approx(0.5)


def test_simulated_camera_from_the_config_takes_seed_and_dealers_pace(
    mocker: MockerFixture,
) -> None:
    from shoe.config import CameraConfig

    built = mocker.patch("hardware.cameras.simulated.SimulatedCamera")
    open_camera(CameraConfig(source="sim", seed=9, pace=90.0, width=320, height=240),
                start_at=7)
    kwargs = built.call_args.kwargs
    assert (kwargs["seed"], kwargs["cards_per_minute"], kwargs["start_at"]) == (9, 90.0, 7)
    assert (kwargs["width"], kwargs["height"], kwargs["pace"]) == (320, 240, 1.0)


def test_simulated_camera_refuses_a_deck_folder_without_the_cards(tmp_path: Path) -> None:
    with pytest.raises(CameraConfigError, match=r"camera\.deck_dir"):
        SimulatedCamera(seed=1, deck_dir=str(tmp_path))


def test_hardware_modules_import_no_device_library_until_a_device_is_built() -> None:
    import subprocess

    modules = "servos leds buttons terminal pca9685 ws2812 camera errors".split()
    code = (
        "import sys\n"
        + "".join(f"import hardware.{m}\n" for m in modules)
        + "held = {'gpiozero', 'picamera2', 'adafruit_pca9685', 'neopixel_spi', 'board', 'cv2'}\n"
        + "print(sorted(held & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_a_drivers_own_failure_on_reopen_is_a_loss_but_a_bad_setting_is_raised() -> None:
    time = FakeTime()
    statuses: list[CameraStatus] = []

    def broken() -> Camera:
        raise OSError("VIDIOC_STREAMON: No space left on device")

    camera = ReconnectingCamera(broken, on_status=lambda s, m: statuses.append(s),
                                sleep=time.sleep, clock=time.clock)
    assert camera.read() is None
    assert statuses == [CameraStatus.LOST]

    def misconfigured() -> Camera:
        raise CameraConfigError("camera.deck_dir: not a folder")

    with pytest.raises(CameraConfigError):
        ReconnectingCamera(misconfigured).read()


def test_simulated_camera_deals_built_in_faces_without_gnome_cards_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from vision import corpus

    monkeypatch.setattr(corpus, "THEME_DIR", tmp_path / "no-themes")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    camera = SimulatedCamera(seed=4, pace=0)
    frame = camera.read()
    camera.close()
    assert frame is not None and frame.image.shape == (480, 640, 3)
    assert "gnome-cards-data" in caplog.text and "built-in faces" in caplog.text
    with pytest.raises(CameraConfigError, match="cannot draw the deck 'paris'"):
        SimulatedCamera(seed=4, pace=0, deck="paris")
