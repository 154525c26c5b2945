"""Issue 32: each folder of a bot's view a filesystem mounted for it alone
(``arena/sandbox/_images.py``), so two bots share no inode: no page, name or futex.

The real-process tests need root, bubblewrap, Linux 6.12 and ``mkfs.erofs``; each has a
control with images off that shows the same bots do share those inodes without them.
"""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from arena.players._manifest import BotSpec
from arena.players._process import open_bot_process
from arena.sandbox import _folders, _images
from arena.sandbox._folders import ViewRefused
from arena.sandbox._images import Image, image_of, images_missing, through_images
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._limits import Limits

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

HERE = Path(__file__).parent


def test_a_folder_with_an_image_is_bound_from_its_mount_and_the_covers_inside_it_dropped():
    image = Image(Path("/srv/bots/a"), Path("/run/x.erofs"), Path("/run/x.d"))
    farm = Image(Path("/run/farm/usr"), Path("/run/y.erofs"), Path("/run/y.d"))
    arguments = ["--symlink", "usr/bin", "/bin", "--ro-bind", "/srv/bots/a", "/srv/bots/a",
                 "--ro-bind", "/run/farm/usr", "/usr", "--ro-bind-try", "/etc/passwd", "/etc/passwd",
                 "--dev", "/dev", "--proc", "/proc", "--size", "10", "--tmpfs", "/tmp",
                 "--tmpfs", "/srv/bots/a/logs", "--ro-bind", "/dev/null", "/srv/bots/a/t.toml",
                 "--ro-bind", "/dev/null", "/srv/bots/ab.db", "--remount-ro", "/dev"]
    assert through_images(arguments, [image, farm]) == [
        "--symlink", "usr/bin", "/bin", "--ro-bind", "/run/x.d", "/srv/bots/a",
        "--ro-bind", "/run/y.d", "/usr", "--ro-bind-try", "/etc/passwd", "/etc/passwd",
        "--dev", "/dev", "--proc", "/proc", "--size", "10", "--tmpfs", "/tmp",
        "--ro-bind", "/dev/null", "/srv/bots/ab.db", "--remount-ro", "/dev"]
    assert through_images(arguments, []) == arguments
    with pytest.raises(ValueError, match="--chdir"):
        through_images(["--chdir", "/srv"], [image])


needs_images = pytest.mark.skipif(images_missing() is not None,
                                  reason=f"images of a view's folders: {images_missing()}")


def listing(image: Image) -> list[str]:
    """What ``image`` holds, mounted as a bot's child mounts it (in a mount namespace of its own)."""
    code = ("import os, sys\nfrom arena.sandbox._images import Image, mount_images\n"
            "image = Image(*sys.argv[1:4])\nmount_images([image])\n"
            "print(sorted(os.path.relpath(os.path.join(root, name), image.mount_point)"
            " for root, folders, names in os.walk(image.mount_point) for name in folders + names))")
    done = subprocess.run([sys.executable, "-c", code, str(image.source), str(image.file), str(image.mount_point)],
                          capture_output=True, text=True, check=True, cwd=HERE.parents[1])
    return eval(done.stdout)


@needs_images
def test_an_image_leaves_out_what_the_organiser_hides_and_is_made_once_for_what_it_holds(tmp_path):
    folder = tmp_path / "bot"
    (folder / "logs").mkdir(parents=True)
    (folder / "bot.py").write_text("print('hello')\n")
    (folder / "logs" / "arena.log").write_text("seed 12345\n")
    (folder / "tournament.toml").write_text("seed = 12345\n")
    os.chmod(tmp_path, 0o755)
    hidden = [folder / "logs", folder / "tournament.toml"]
    one = image_of(folder, hidden)
    assert one is not None and listing(one) == ["bot.py"]
    assert image_of(folder, hidden) == one
    (folder / "tournament.toml").write_text("seed = 54321\n")  # a hidden file changed: the same image
    (folder / "logs" / "arena.log").write_text("more\n")
    assert image_of(folder, hidden) == one
    (folder / "helper.py").write_text("x = 1\n")  # what the bot sees changed: a new image
    two = image_of(folder, hidden)
    assert two is not None and two.file != one.file and listing(two) == ["bot.py", "helper.py"]


@needs_images
def test_a_farms_image_used_again_by_a_long_running_process_is_kept_or_made_again(tmp_path):
    # A farm's image is looked up once per process (its name says what it holds). It was not
    # marked used again after that, so once the images passed their bound, another arena's
    # sweep removed the image a ladder (or a long tournament) still started bots from: every
    # later start failed ("Exception occurred in preexec_fn", the mount of a removed file).
    folder = tmp_path / "farm"
    folder.mkdir()
    (folder / "lib.so").write_text("x" * 100)
    os.chmod(tmp_path, 0o755)
    first = image_of(folder, unchanging=True)
    assert first is not None
    os.utime(first.file, (1, 1))  # long unused, as far as the sweep can tell
    assert image_of(folder, unchanging=True) == first and first.file.stat().st_mtime > 1  # used: kept
    first.file.unlink()  # swept meanwhile all the same
    again = image_of(folder, unchanging=True)
    assert again == first and again.file.exists()  # made again, not handed out gone


@needs_images
def test_the_root_top_level_folders_and_closed_ones_are_bound_as_they_are_and_a_large_one_refused(
        tmp_path, monkeypatch):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("print('hello')\n")
    os.chmod(tmp_path, 0o755)
    assert image_of(Path("/")) is None and image_of(Path("/usr")) is None
    folder.chmod(0o700)
    assert image_of(folder) is None
    folder.chmod(0o755)
    monkeypatch.setattr(_folders, "MAX_BYTES", 10)  # fail closed: never bound as it is (issue 44)
    with pytest.raises(ViewRefused, match=f"^{folder} holds more than 10 bytes"):
        image_of(folder)


@pytest.fixture(scope="module")
def sandbox():
    if os.geteuid() != 0:
        pytest.skip("needs root: images are mounted by the bot's child as root")
    if images_missing() is not None:
        pytest.skip(f"images of a view's folders: {images_missing()}")
    box = detect_sandbox("auto")
    if box.bwrap is None or box.images_missing is not None:
        box.close()
        pytest.skip("bubblewrap or images do not work here")
    yield box
    box.close()


#: a bot that says the device of its folder, its standard library and /usr/bin, while another runs
DEVICES = ("import json, os, sys, time\n"
           "def device(path):\n"
           "    info = os.stat(path)\n"
           "    return '%d:%d' % (os.major(info.st_dev), os.minor(info.st_dev))\n"
           "print(json.dumps([device(p) for p in (os.getcwd(), os.path.dirname(os.__file__), '/usr/bin')]),"
           " file=sys.stderr, flush=True)\n"
           "time.sleep(1)\n")


async def run_both(box, code: str, task: dict, limit_s: float = 30) -> dict[str, str]:
    """Two bots running ``code`` at once (``task`` and its ``role`` in argv[1]); each one's stderr."""
    said = {}

    async def bot(role: str) -> None:
        spec = BotSpec(role, (sys.executable, "-I", "-S", "-c", code, json.dumps({**task, "role": role})),
                       cwd=HERE / "bots", limits=Limits(processes=16))
        async with open_bot_process(spec, box) as process:
            with trio.move_on_after(limit_s):
                await process.process.wait()
        said[role] = process.stderr.tail()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot, "send")
        nursery.start_soon(bot, "receive")
    return said


def mounted_here() -> set[str]:
    with open("/proc/self/mountinfo") as table:
        return {line.split()[2] for line in table}


async def test_two_bots_at_once_see_their_folders_on_filesystems_of_their_own(sandbox):
    said = await run_both(sandbox, DEVICES, {})
    one, two = (json.loads(said[role].splitlines()[-1]) for role in ("send", "receive"))
    assert len(set(one) | set(two)) == 6, (one, two)  # six filesystems: three each, none shared
    assert not (set(one) | set(two)) & mounted_here()  # none of them the arena's (the host's)
    # The control: the same bots, their folders bound as they are, see the arena's filesystems.
    said = await run_both(dataclasses.replace(sandbox, images_missing="off for this test"), DEVICES, {})
    one, two = (json.loads(said[role].splitlines()[-1]) for role in ("send", "receive"))
    assert one == two and set(one) <= mounted_here()


#: one bot wakes a futex on a read-only shared mapping of a file both may read (its Python),
#: the other waits on it: the futex channel of ``benchmarks/covert_channels.py``, one bit
FUTEX = r"""
import ctypes, json, mmap, os, sys, time
task = json.loads(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
SYS_futex = 202 if os.uname().machine == "x86_64" else 98
class timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]
with open(os.path.realpath(sys.executable), "rb") as shared:
    address = libc.mmap(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, shared.fileno(), 0)
    word = ctypes.c_int.from_address(address).value
    if task["role"] == "send":
        end = time.monotonic() + task["seconds"]
        while time.monotonic() < end:
            libc.syscall(SYS_futex, ctypes.c_void_p(address), 1, 1, None, None, 0)  # FUTEX_WAKE
        print(json.dumps({"sent": True}), file=sys.stderr, flush=True)
    else:
        timeout = timespec(task["seconds"] - 1, 0)
        woken = libc.syscall(SYS_futex, ctypes.c_void_p(address), 0, word, ctypes.byref(timeout), None, 0) == 0
        print(json.dumps({"woken": woken}), file=sys.stderr, flush=True)
"""


async def test_a_futex_woken_on_a_shared_file_wakes_nothing_in_another_bot(sandbox):
    said = await run_both(sandbox, FUTEX, {"seconds": 3})
    assert json.loads(said["receive"].splitlines()[-1]) == {"woken": False}, said
    # The control: with the file's inode shared, the waiter is woken.
    said = await run_both(dataclasses.replace(sandbox, images_missing="off for this test"), FUTEX, {"seconds": 3})
    assert json.loads(said["receive"].splitlines()[-1]) == {"woken": True}, said
