"""The bots' stderr logs are bounded per version and per author and go with the version
(arena/ladder/_logs.py): the pruning itself, then real servers whose bots write a 1 MiB log
for every game they play."""

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


def test_an_author_keeps_its_newest_logs_across_its_versions_up_to_its_limit(tmp_path):
    for version in range(1, 4):  # three versions, each within its own limit of 1 MiB
        for age in range(2):
            write(tmp_path, f"mallory-v{version}.{10 * version + age}.log", MiB // 2, 10 * (3 - version) + age)
    write(tmp_path, "mallory-vx.5.log", MiB, 100)  # another author's (its name is not a version)
    write(tmp_path, "bob-v1.6.log", 2 * MiB, 0)  # another author's, alone over the limit: kept
    deleted = prune_logs(tmp_path, MiB, per_author=3 * MiB // 2)
    # mallory's newest three, v3's two and v2's newest; the oldest go first.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bob-v1.6.log", "mallory-v2.20.log", "mallory-v3.30.log",
                                                          "mallory-v3.31.log", "mallory-vx.5.log"]
    assert deleted == 3 * (MiB // 2)
    assert prune_logs(tmp_path, MiB, per_author=3 * MiB // 2) == 0


@pytest.mark.slow
def test_a_bot_that_writes_a_log_per_game_keeps_one_versions_worth():
    # chatty's only opponent is the random bot, so every game the ladder plays is one of chatty's
    folder = ladder_folder('logs_per_version_mb = 1\ngame_fault_limit = 4\ngame_fault_window = 4\n\n'
                           f'[[bots]]\nauthor = "chatty"\nmanifest = "{BOTS}/chatty/bot.toml"\n'
                           + house_bots(random="py-random.toml"))
    logs = folder / "ladder.db.logs"
    server = Server(folder, "auto")
    try:
        # 4 games with a fault: 4 processes, each of which wrote a 1 MiB log; then no more.
        server.wait_for(lambda: server.json("/api/bots/chatty-v1")["withdrawn"], "chatty withdrawn")

        def chatty_logs() -> int:
            return sum(p.stat().st_size for p in logs.iterdir() if p.name.startswith("chatty-v1."))

        # Its newest log alone (1 MiB and the note that it was cut) once the pruning has passed.
        server.wait_for(lambda: 0 < chatty_logs() <= MiB + 100, "chatty's logs pruned to one version's worth")
        assert any(p.name.startswith("random-v1.") for p in logs.iterdir())  # the others' stay
    finally:
        server.stop()
        remove(folder)


@pytest.mark.slow
def test_an_author_with_two_versions_playing_keeps_one_authors_worth():
    """Two versions of one author play at once, each within its own limit (two logs), but
    together past the author's: once both are withdrawn (no more processes), the author's
    newest log alone is left."""
    folder = ladder_folder('active_versions = 2\nlogs_per_version_mb = 3\nlogs_per_author_mb = 1\n'
                           'game_fault_limit = 4\ngame_fault_window = 4\n'
                           + "".join(f'\n[[bots]]\nauthor = "chatty"\nmanifest = "{manifest}"\n'
                                     for manifest in (BOTS / "chatty/bot.toml", BOTS / "chatty/again.toml"))
                           + house_bots(random="py-random.toml"))
    logs = folder / "ladder.db.logs"
    server = Server(folder, "auto")
    try:
        for name in ("chatty-v1", "chatty-v2"):
            server.wait_for(lambda: server.json(f"/api/bots/{name}")["withdrawn"], f"{name} withdrawn")

        def chatty_logs() -> list[int]:
            return [p.stat().st_size for p in logs.iterdir() if p.name.startswith("chatty-v")]

        server.wait_for(lambda: len(chatty_logs()) == 1 and 0 < sum(chatty_logs()) <= MiB + 100,
                        "chatty's logs pruned to one author's worth")
        assert any(p.name.startswith("random-v1.") for p in logs.iterdir())  # the others' stay
    finally:
        server.stop()
        remove(folder)
