"""``--stderr DIR`` on ``arena match`` and ``arena check-bot``: every bot process's stderr is
saved even when nothing goes wrong; a folder that cannot be made is one error line."""

import subprocess
import sys
from pathlib import Path

import pytest

CHATTY = f"{sys.executable} {Path(__file__).parent / 'bots' / 'chatty.py'}"


def arena(*args):
    return subprocess.run(["arena", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_match_saves_every_bots_stderr(tmp_path, sandbox):
    logs = tmp_path / "logs" / "match"
    done = arena("match", "opito-bay", CHATTY, "python -m bots.random", "--stderr", str(logs), "--sandbox", sandbox)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"stderr saved in {logs}/ (NAME.PID.log per bot process)"
    saved = {path.name.rsplit(".", 2)[0]: path.read_text() for path in logs.iterdir()}  # NAME.PID.log
    assert saved == {"chatty": "chatty: starting up\n", "bots.random": ""}


def test_check_bot_saves_the_checked_bots_stderr(tmp_path):
    logs = tmp_path / "logs"
    done = arena("check-bot", CHATTY, "--game", "karibik", "--games-per", "1", "--stderr", str(logs))
    assert done.returncode == 0, done.stdout
    texts = [path.read_text() for path in logs.iterdir()]
    assert len(texts) >= 2 and set(texts) == {"chatty: starting up\n"}  # handshake + game processes


def test_a_file_in_the_way_is_one_error_line(tmp_path):
    (tmp_path / "file").write_text("")
    done = arena("match", "opito-bay", "python -m bots.random", "python -m bots.random",
                 "--stderr", str(tmp_path / "file" / "logs"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: {tmp_path / 'file' / 'logs'}: cannot create the --stderr folder (Not a directory)\n"


def test_a_log_is_never_overwritten_nor_written_through_a_link(tmp_path):
    # Pids come round again in a long run, and machines of a cluster may share the folder: a
    # second process of the same name and pid gets NAME.PID-2.log, and a link planted under a
    # log's name is not followed (the file it points at stays as it was).
    from arena.players._stderr_log import StderrLog

    first = StderrLog(path=tmp_path / "bot.7.log")
    first.write(b"first process\n")
    second = StderrLog(path=tmp_path / "bot.7.log")
    second.write(b"second process\n")
    victim = tmp_path / "organiser-file"
    victim.write_bytes(b"keep me")
    (tmp_path / "bot.8.log").symlink_to(victim)
    planted = StderrLog(path=tmp_path / "bot.8.log")
    planted.write(b"third process\n")
    for log in (first, second, planted):
        log.close()
    assert (first.path.name, second.path.name, planted.path.name) == ("bot.7.log", "bot.7-2.log", "bot.8-2.log")
    assert first.path.read_bytes() == b"first process\n"
    assert second.path.read_bytes() == b"second process\n"
    assert planted.path.read_bytes() == b"third process\n"
    assert victim.read_bytes() == b"keep me"
