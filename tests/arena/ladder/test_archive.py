"""Unpacking submitted archives: good ones unpack with safe modes; hostile ones (bombs, traversal,
links, devices, fifos, duplicates, odd names) are refused, each built for real in the test."""

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from arena.ladder._archive import ArchiveError, ArchiveLimits, _Entry, _write, unpack

MANIFEST = b'name = "b"\ncommand = ["python", "bot.py"]\n'


def make_zip(*entries: tuple[str, bytes] | zipfile.ZipInfo, data: dict | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry in entries:
            if isinstance(entry, zipfile.ZipInfo):
                archive.writestr(entry, (data or {}).get(entry.filename, b""))
            else:
                archive.writestr(*entry)
    return buffer.getvalue()


def make_tar(*members: tuple[tarfile.TarInfo, bytes | None], mode: str = "w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=tarfile.PAX_FORMAT) as archive:
        for info, payload in members:
            if payload is not None:
                info.size = len(payload)
            archive.addfile(info, io.BytesIO(payload) if payload is not None else None)
    return buffer.getvalue()


def member(name: str, kind: bytes = tarfile.REGTYPE, **fields) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in fields.items():
        setattr(info, key, value)
    return info


def files_under(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def refused(data: bytes, dest: Path, limits: ArchiveLimits = ArchiveLimits()) -> str:
    with pytest.raises(ArchiveError) as caught:
        unpack(data, dest, limits)
    return str(caught.value)


# -- good archives --------------------------------------------------------------------------------

def test_zip_with_manifest_at_top_unpacks_with_safe_modes(tmp_path):
    script = zipfile.ZipInfo("run.sh")
    script.external_attr = (stat.S_IFREG | 0o4777) << 16  # setuid and world-writable in the archive
    data = make_zip(("bot.toml", MANIFEST), ("src/bot.py", b"print(1)\n"), script, data={"run.sh": b"#!/bin/sh\n"})
    assert unpack(data, tmp_path / "out") == tmp_path / "out"
    assert files_under(tmp_path / "out") == {"bot.toml": MANIFEST, "run.sh": b"#!/bin/sh\n", "src/bot.py": b"print(1)\n"}
    assert stat.S_IMODE((tmp_path / "out" / "run.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "out" / "bot.toml").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "out" / "src").stat().st_mode) == 0o755


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:xz"])
def test_tar_with_manifest_in_a_single_top_folder_returns_that_folder(tmp_path, mode):
    data = make_tar((member("./", tarfile.DIRTYPE), None), (member("./my-bot", tarfile.DIRTYPE), None),
                    (member("./my-bot/bot.toml"), MANIFEST), (member("./my-bot/bot.py", mode=0o700), b"x"), mode=mode)
    assert unpack(data, tmp_path / "out") == tmp_path / "out" / "my-bot"
    assert files_under(tmp_path / "out") == {"my-bot/bot.toml": MANIFEST, "my-bot/bot.py": b"x"}
    assert stat.S_IMODE((tmp_path / "out" / "my-bot" / "bot.py").stat().st_mode) == 0o755


def test_manifest_must_be_at_the_top_or_in_the_single_top_folder(tmp_path):
    two_tops = make_zip(("a/bot.toml", MANIFEST), ("b/x", b""))
    assert refused(two_tops, tmp_path / "1") == "no bot.toml at the top of the archive or in its single top-level folder"
    deeper = make_zip(("a/b/bot.toml", MANIFEST))
    assert "no bot.toml" in refused(deeper, tmp_path / "2")
    folder_named_manifest = make_zip(("bot.toml/x", b""))
    assert "no bot.toml" in refused(folder_named_manifest, tmp_path / "3")


def test_destination_must_be_empty(tmp_path):
    (tmp_path / "old").write_text("x")
    with pytest.raises(ValueError, match="not an empty folder") as caught:
        unpack(make_zip(("bot.toml", MANIFEST)), tmp_path)
    assert not isinstance(caught.value, ArchiveError)  # the arena's mistake, not the author's


def test_not_an_archive_is_refused(tmp_path):
    assert refused(b"hello, this is not an archive", tmp_path / "a").startswith("the archive is damaged or not a zip")
    assert refused(b"", tmp_path / "b").startswith("the archive is damaged")
    assert refused(b"PK\x03\x04garbage", tmp_path / "c").startswith("the zip archive is damaged")


# -- bombs and limits -------------------------------------------------------------------------------

def test_zip_bomb_is_refused_before_its_data_is_written(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("bot.toml", MANIFEST)
        with archive.open("zeros", "w") as out:
            for _ in range(24):
                out.write(bytes(2**20))  # 24 MiB of zeros, over the 20 MiB limit per file
    data = buffer.getvalue()
    assert len(data) < 100_000
    assert refused(data, tmp_path / "out") == f"zeros: {24 * 2**20} bytes, over the limit of {20 * 2**20} per file"
    assert not (tmp_path / "out" / "zeros").exists()


def test_tar_gz_bomb_is_refused_by_its_declared_size_before_reading(tmp_path):
    # only the header of a 10 GiB member: refused from the header, its data is never read
    data = make_tar((member("bot.toml"), MANIFEST), (member("huge", size=10 * 2**30), None))
    assert refused(data, tmp_path / "out") == f"huge: {10 * 2**30} bytes, over the limit of {20 * 2**20} per file"
    assert sorted(files_under(tmp_path / "out")) == ["bot.toml"]


def test_zip_entry_that_lies_about_its_size_is_stopped_at_the_limit(tmp_path):
    bomb = make_zip(("bot.toml", MANIFEST), ("zeros", bytes(8 * 2**20)))
    # Shrink the declared size in the central directory and local header: 8 MiB become "100 bytes".
    info = zipfile.ZipFile(io.BytesIO(bomb)).getinfo("zeros")
    lying = bytearray(bomb)
    real = (8 * 2**20).to_bytes(4, "little")
    for at in (info.header_offset + 22, bomb.rindex(b"PK\x01\x02") + 24):
        assert lying[at:at + 4] == real
        lying[at:at + 4] = (100).to_bytes(4, "little")
    message = refused(bytes(lying), tmp_path / "out", ArchiveLimits(max_file_bytes=2**20))
    assert message.startswith("zeros") and "damaged" in message  # zipfile stops at the declared size: CRC fails
    assert (tmp_path / "out" / "zeros").stat().st_size <= 100


def test_data_past_its_declared_size_stops_at_the_limit_while_streaming(tmp_path):
    """Whatever a format's reader delivers beyond the declared size is counted as it streams:
    the write stops at the limit, with no more than the limit on disk."""
    endless = _Entry("big", False, 10, False, lambda: io.BytesIO(bytes(3 * 2**20)))
    with pytest.raises(ArchiveError) as caught:
        _write(tmp_path, PurePosixPath("big"), endless, 2**20, ArchiveLimits(max_file_bytes=2**20))
    assert str(caught.value) == "big: unpacks to more than its declared 10 bytes and past the limit per file"
    assert (tmp_path / "big").stat().st_size <= 2**20


def test_total_size_limit(tmp_path):
    data = make_zip(("bot.toml", MANIFEST), ("a", bytes(600)), ("b", bytes(600)))
    assert refused(data, tmp_path / "out", ArchiveLimits(max_bytes=1000)) == (
        "b: the files add up to more than 1000 bytes (the limit)")


def test_too_many_files(tmp_path):
    data = make_zip(("bot.toml", MANIFEST), *((f"f{i}", b"") for i in range(10)))
    assert refused(data, tmp_path / "out", ArchiveLimits(max_files=5)) == "more than 5 entries (the limit)"
    assert len(list((tmp_path / "out").iterdir())) == 5


# -- names ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, message", [
    ("../x", "../x: '..' in a path; entries must stay inside the archive's top"),
    ("a/../../x", "a/../../x: '..' in a path; entries must stay inside the archive's top"),
    ("/etc/x", "/etc/x: an absolute path; entries must be relative to the archive's top"),
    ("a\nb", "'a\\nb': control characters (or NUL) in a name"),
    ("a\0b", "'a\\x00b': control characters (or NUL) in a name"),
])
@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_bad_names_are_refused_and_nothing_escapes(tmp_path, name, message, kind):
    if kind == "zip" and "\0" in name:
        # zipfile itself cuts a name at NUL when it reads the archive: the entry is plain "a"
        info = zipfile.ZipInfo("placeholder")
        info.filename = name
        assert unpack(make_zip(("bot.toml", MANIFEST), info), tmp_path / "out") == tmp_path / "out"
        assert sorted(files_under(tmp_path / "out")) == ["a", "bot.toml"]
        return
    if kind == "zip":
        info = zipfile.ZipInfo("placeholder")
        info.filename = name  # ZipInfo() would cut at NUL and strip the leading '/'
        data = make_zip(("bot.toml", MANIFEST), info)
    else:
        entry = member("placeholder", pax_headers={"path": name})  # a pax header can hold NUL, ustar cannot
        data = make_tar((member("bot.toml"), MANIFEST), (entry, b"x"))
    dest = tmp_path / "deep" / "out"
    assert refused(data, dest) == message
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["bot.toml", "deep", "out"]


def test_name_that_is_not_utf8_is_refused(tmp_path):
    data = make_tar((member("bot.toml"), MANIFEST), (member("caf\udce9"), b"x"), mode="w")
    assert refused(data, tmp_path / "out") == "'caf\\udce9': the name is not valid UTF-8"


def test_duplicate_names_that_would_overwrite_are_refused(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, pytest.warns(UserWarning, match="Duplicate name"):
        archive.writestr("bot.toml", MANIFEST)
        archive.writestr("bot.toml", b'command = "evil"\n')
    assert refused(buffer.getvalue(), tmp_path / "a") == (
        "bot.toml: appears twice in the archive (or as both a file and a folder)")
    assert (tmp_path / "a" / "bot.toml").read_bytes() == MANIFEST
    same_after_normalising = make_tar((member("bot.toml"), MANIFEST), (member("./bot.toml"), b"evil"))
    assert "appears twice" in refused(same_after_normalising, tmp_path / "b")
    file_then_folder = make_zip(("bot.toml", MANIFEST), ("a", b""), ("a/b", b""))
    assert refused(file_then_folder, tmp_path / "c") == "a/b: a is a file earlier in the archive"
    folder_then_file = make_zip(("bot.toml", MANIFEST), ("a/b", b""), ("a", b""))
    assert "appears twice" in refused(folder_then_file, tmp_path / "d")


# -- links and special files -----------------------------------------------------------------------

def test_zip_symlink_is_refused(tmp_path):
    link = zipfile.ZipInfo("passwd")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    data = make_zip(("bot.toml", MANIFEST), link, data={"passwd": b"/etc/passwd"})
    assert refused(data, tmp_path / "out") == (
        "passwd: a symlink; only regular files and folders are allowed")
    assert not os.path.lexists(tmp_path / "out" / "passwd")


def test_tar_symlink_to_etc_passwd_is_refused(tmp_path):
    data = make_tar((member("bot.toml"), MANIFEST), (member("passwd", tarfile.SYMTYPE, linkname="/etc/passwd"), None))
    assert refused(data, tmp_path / "out") == "passwd: a symlink (to /etc/passwd); links are not allowed"
    assert not os.path.lexists(tmp_path / "out" / "passwd")


def test_symlink_then_a_file_written_through_it_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    data = make_tar((member("bot.toml"), MANIFEST), (member("link", tarfile.SYMTYPE, linkname=str(outside)), None),
                    (member("link/planted"), b"gotcha"))
    assert "links are not allowed" in refused(data, tmp_path / "out")
    assert list(outside.iterdir()) == []


def test_hardlink_is_refused(tmp_path):
    data = make_tar((member("bot.toml"), MANIFEST), (member("shadow", tarfile.LNKTYPE, linkname="/etc/shadow"), None))
    assert refused(data, tmp_path / "out") == "shadow: a hardlink (to /etc/shadow); links are not allowed"


@pytest.mark.parametrize("kind, what", [(tarfile.FIFOTYPE, "a fifo"), (tarfile.CHRTYPE, "a device"),
                                        (tarfile.BLKTYPE, "a device")])
def test_fifo_and_devices_in_a_tar_are_refused(tmp_path, kind, what):
    data = make_tar((member("bot.toml"), MANIFEST), (member("pipe", kind, devmajor=1, devminor=3), None))
    assert refused(data, tmp_path / "out") == f"pipe: {what}; only regular files and folders are allowed"
    assert not os.path.lexists(tmp_path / "out" / "pipe")


def test_fifo_in_a_zip_is_refused(tmp_path):
    fifo = zipfile.ZipInfo("pipe")
    fifo.external_attr = (stat.S_IFIFO | 0o644) << 16
    data = make_zip(("bot.toml", MANIFEST), fifo)
    assert refused(data, tmp_path / "out") == "pipe: a fifo; only regular files and folders are allowed"


# -- headers read whole by tarfile: their sizes are checked first (issue 27) ---------------------

def test_a_huge_gnu_long_name_is_refused_before_it_is_read(tmp_path):
    from .test_server_hostile import long_name_tar_xz

    data = long_name_tar_xz()  # 10 KB of xz, 64 MiB of name
    assert refused(data, tmp_path / "out") == ("a GNU long name of 67108864 bytes, over the limit of 4096 "
                                               "(a path is at most 4096 bytes)")


def test_a_huge_pax_header_is_refused(tmp_path):
    info = member("bot.toml")
    info.pax_headers = {"comment": "x" * 20_000}
    assert refused(make_tar((info, MANIFEST)), tmp_path / "out") == "a pax header of 20015 bytes, over the limit of 16384"


def test_a_long_chain_of_extension_headers_is_refused(tmp_path):
    long = tarfile.TarInfo("././@LongLink")
    long.type, long.size = tarfile.GNUTYPE_LONGNAME, 512
    data = (long.tobuf(format=tarfile.GNU_FORMAT) + b"a" * 512) * 5 + member("a").tobuf(format=tarfile.GNU_FORMAT)
    assert refused(data + b"\0" * 1024, tmp_path / "out") == (
        "more than 4 extension headers (pax, GNU long names) in a row")


def test_a_name_over_path_max_is_refused_and_shown_cut(tmp_path):
    error = refused(make_zip(("a" * 5000, b"")), tmp_path / "out")
    assert error == f"'{'a' * 200}'...: a name of 5000 bytes, over the limit of 4096"
