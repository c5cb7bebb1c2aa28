"""Deterministic zips and atomic writes."""

from __future__ import annotations

import io
import threading
import zipfile

import pytest

from lmsexport.package import MANIFEST, Package, Zipping, write_atomic, zip_bytes
from lmsexport.spool import SpooledFiles

FILES = {"b.xml": b"<b/>", MANIFEST: b"<manifest/>", "a/z.txt": "é".encode()}


def test_zip_order_dates_and_modes_are_fixed():
    archive = zipfile.ZipFile(io.BytesIO(zip_bytes(FILES)))
    assert archive.namelist() == [MANIFEST, "a/z.txt", "b.xml"]
    for info in archive.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert info.external_attr >> 16 == 0o644
    assert archive.read("a/z.txt") == "é".encode()


def test_same_files_give_the_same_bytes_whatever_their_order():
    reordered = dict(reversed(list(FILES.items())))
    assert zip_bytes(FILES) == zip_bytes(reordered)


def test_source_date_epoch_sets_the_entry_dates(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data = Package(FILES).to_bytes()
    assert zipfile.ZipFile(io.BytesIO(data)).infolist()[0].date_time == (2023, 11, 14, 22, 13, 20)


def test_single_file_package_is_written_as_it_is():
    assert Package({"bank.xml": b"<quiz/>"}, zipped=False).to_bytes() == b"<quiz/>"


def test_zipping_on_a_thread_gives_the_same_bytes_and_its_errors():
    assert Zipping(Package(FILES)).result() == Package(FILES).to_bytes()
    assert Zipping(Package({"bank.xml": b"<quiz/>"}, zipped=False)).result() == b"<quiz/>"
    broken = Zipping(Package({"a.xml": 5}))
    with pytest.raises(TypeError):
        broken.result()
    assert not [t for t in threading.enumerate() if t.name == "lmsexport-zip"]  # joined: a later build may fork


def test_a_large_package_is_zipped_once_it_is_checked(monkeypatch):
    """Past `SPILLED` bytes the zip's record of every entry would stack on the check's peak."""
    from lmsexport import package

    started = []

    class Thread:  # runs at once, and counts
        def __init__(self, target, args, **_):
            started.append(target)
            self.start, self.join = lambda: target(*args), lambda: None

    monkeypatch.setattr(package.threading, "Thread", Thread)
    assert Zipping(Package(SpooledFiles(FILES))).result() == Package(FILES).to_bytes() and len(started) == 1
    monkeypatch.setattr(package, "SPILLED", 0)
    zipping = Zipping(Package(SpooledFiles(FILES)))
    assert b"".join(zipping.result()) == Package(FILES).to_bytes() and len(started) == 1


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out" / "quiz.zip"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["quiz.zip"]


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "quiz.zip"
    target.write_bytes(b"old")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr("lmsexport.package.os.replace", broken_replace)
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["quiz.zip"]
