"""Issue 44: what a bot sees of the system is its runtime's, declared by its command and computed
from the runtime's own files (``arena/sandbox/_runtimes.py``); what the bot's own files say is
only checked against it, never added to its view."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.sandbox._folders import ViewRefused
from arena.sandbox._runtimes import of_the_system, runtime_of
from arena.sandbox._view import view_paths

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler (apt-get install gcc)")
LIBCAP = next((path for path in ("/lib/x86_64-linux-gnu/libcap.so.2", "/usr/lib/x86_64-linux-gnu/libcap.so.2",
                                 "/usr/lib64/libcap.so.2") if os.path.exists(path)), None)
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin"}


def compile_program(folder: Path, source: str, *flags: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.c").write_text(source)
    subprocess.run(["cc", "-o", str(folder / "bot"), str(folder / "bot.c"), "-Wl,--no-as-needed", *flags],
                   check=True)
    return folder / "bot"


def system_part(folder: Path) -> list[Path]:
    return [path for path in view_paths([str(folder / "bot")], folder, ENV) if of_the_system(path)]


def test_a_program_in_its_folder_is_native_a_system_program_its_own_runtime(tmp_path):
    (tmp_path / "bot").write_bytes(b"\x7fELF")
    assert runtime_of(tmp_path / "bot", ENV, tmp_path).name == "native"
    assert runtime_of(Path(sys.executable), ENV, tmp_path).name == "the arena's Python"
    assert runtime_of(Path("/bin/sh"), ENV, tmp_path).name == "/bin/sh"
    # The same program, named where the bot has no folder of its own (a command run in /usr)
    assert runtime_of(Path("/usr/bin/env"), ENV, None).name == "/usr/bin/env"


def test_a_scripts_interpreter_of_the_system_is_its_runtime_another_is_not(tmp_path):
    (tmp_path / "bot.sh").write_text("#!/bin/sh\necho hi\n")
    assert runtime_of(tmp_path / "bot.sh", ENV, tmp_path).name == "/bin/sh"
    (tmp_path / "inner").write_text("#!/bin/sh\n")
    (tmp_path / "outer").write_text(f"#!{tmp_path / 'inner'}\n")
    assert runtime_of(tmp_path / "outer", ENV, tmp_path).name == "native"


@needs_cc
def test_every_native_bot_sees_the_same_system_whatever_its_program_names(tmp_path):
    # One links the math library, the other the C library alone: before issue 44 each saw what
    # its program named, so the system part was the bot's files' choice, one farm per bot.
    compile_program(tmp_path / "plain", "int main(void) { return 0; }\n")
    compile_program(tmp_path / "maths", "#include <math.h>\nint main(int c, char **v) { return (int) sqrt(c); }\n",
                    "-lm")
    assert system_part(tmp_path / "plain") == system_part(tmp_path / "maths")
    assert any(path.name == "libm.so.6" for path in system_part(tmp_path / "plain"))


@needs_cc
@pytest.mark.skipif(LIBCAP is None, reason="needs libcap.so.2 (bubblewrap's own dependency)")
def test_a_system_library_its_runtime_does_not_hold_refuses_the_bot(tmp_path):
    folder = tmp_path / "capper"
    compile_program(folder, "int main(void) { return 0; }\n", LIBCAP)
    with pytest.raises(ViewRefused, match=r"libcap\.so\.2: its program loads it, and its runtime \(native\) does "
                                          r"not hold it; put the library in the bot's folder"):
        view_paths([str(folder / "bot")], folder, ENV)
    # brought in its own folder, found through its RUNPATH: fine, and nothing of the host added
    (folder / "lib").mkdir()
    shutil.copy(LIBCAP, folder / "lib" / "libcap.so.2")
    compile_program(folder, "int main(void) { return 0; }\n", str(folder / "lib" / "libcap.so.2"),
                    "-Wl,-rpath,$ORIGIN/lib")
    compile_program(tmp_path / "plain", "int main(void) { return 0; }\n")
    assert system_part(folder) == system_part(tmp_path / "plain")


def test_scripts_naming_each_other_end_in_a_runtime_not_a_recursion(tmp_path, monkeypatch):
    # Two "system" scripts whose #! lines name each other: followed as deep as the kernel
    # follows them (4), then the last one is a program of its own.
    import arena.sandbox._runtimes as runtimes

    (tmp_path / "a").write_text(f"#!{tmp_path / 'b'}\n")
    (tmp_path / "b").write_text(f"#!{tmp_path / 'a'}\n")
    monkeypatch.setattr(runtimes, "of_the_system", lambda path: True)
    assert runtimes.runtime_of(tmp_path / "a", ENV, None).name in (str(tmp_path / "a"), str(tmp_path / "b"))
