"""The bots' stderr logs are bounded per version and go with the version (arena/ladder/_logs.py):
the pruning itself, then a real server whose bot writes a 1 MiB log for every game it plays."""

import os

import pytest

from arena.ladder._logs import prune_logs

from ._server import BOTS, Server, house_bots, ladder_folder, remove

MiB = 2**20


def write(folder, name: str, size: int, age: int) -> None:
    path = folder / name
    path.write_bytes(b"x" * size)
    os.utime(path, (1_000_000 - age, 1_000_000 - age))


def test_each_version_keeps_its_newest_logs_up_to_the_limit(tmp_path):
    for age in range(5):
        write(tmp_path, f"alice-v1.{100 + age}.log", MiB // 2, age)
    write(tmp_path, "alice-v1.99-2.log", MiB // 2, 10)
    write(tmp_path, "bob-v1.7.log", 3 * MiB, 0)  # the newest is kept, whatever its size
    write(tmp_path, "bob-v1.8.log", 10, 1)
    write(tmp_path, "carol-v2.9.log", 10, 0)
    write(tmp_path, "notes.txt", 5 * MiB, 0)  # not a log: left alone
    deleted = prune_logs(tmp_path, MiB, removed=["carol-v2"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice-v1.100.log", "alice-v1.101.log", "bob-v1.7.log",
                                                          "notes.txt"]
    assert deleted == 4 * (MiB // 2) + 10 + 10
    assert prune_logs(tmp_path, MiB) == 0


@pytest.mark.slow
def test_a_bot_that_writes_a_log_per_game_keeps_one_versions_worth():
    folder = ladder_folder('logs_per_version_mb = 1\ngame_fault_limit = 12\ngame_fault_window = 12\n\n'
                           f'[[bots]]\nauthor = "chatty"\nmanifest = "{BOTS}/chatty/bot.toml"\n'
                           + house_bots(random="py-random.toml", heuristic="py-heuristic.toml"))
    logs = folder / "ladder.db.logs"
    server = Server(folder, "auto")
    try:
        # 12 games with a fault: 12 processes, each of which wrote a 1 MiB log; then no more.
        server.wait_for(lambda: server.json("/api/bots/chatty-v1")["withdrawn"], "chatty withdrawn")

        def chatty_logs() -> int:
            return sum(p.stat().st_size for p in logs.iterdir() if p.name.startswith("chatty-v1."))

        # Its newest log alone (1 MiB and the note that it was cut) once the pruning has passed.
        server.wait_for(lambda: 0 < chatty_logs() <= MiB + 100, "chatty's logs pruned to one version's worth")
        assert any(p.name.startswith("random-v1.") for p in logs.iterdir())  # the others' stay
    finally:
        server.stop()
        remove(folder)
