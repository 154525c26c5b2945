"""What the ladder keeps of a fault's text is bounded per version and per author
(arena/ladder/_faulttext.py)."""

from arena.ladder._faulttext import (NOTE_MAX, SHOWN_STDERR, TEXTS_KEPT, TEXTS_PER_AUTHOR, cut, forget_all_texts,
                                     forget_old_texts, shown)
from arena.ladder._store import LadderStore


def test_a_versions_newest_faults_keep_their_text_the_older_ones_a_note(tmp_path):
    store = LadderStore.open(tmp_path / "l.db", "dead-mans-draw", 2)
    db = store._db
    with db:
        for game in range(1, 101):
            db.execute("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)", (game, "a-v1", "crash", 3, "d" * 4096, "e" * 16384))
            db.execute("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)", (game, "b-v1", "crash", 3, "d" * 10, "e" * 10))
            forget_old_texts(db, ["a-v1"])
    rows = db.execute("SELECT game, length(detail), length(stderr_tail) FROM faults WHERE entrant = 'a-v1' "
                      "ORDER BY game").fetchall()
    assert [row[0] for row in rows if row[2]] == list(range(101 - TEXTS_KEPT, 101))
    assert all(detail <= NOTE_MAX and stderr == 0 for _, detail, stderr in rows[: 100 - TEXTS_KEPT])
    assert db.execute("SELECT sum(length(stderr_tail)) FROM faults WHERE entrant = 'b-v1'").fetchone() == (1000,)
    with db:
        forget_all_texts(db, "a-v1")  # the version is removed
    assert db.execute("SELECT max(length(stderr_tail)), max(length(detail)) FROM faults WHERE entrant = 'a-v1'"
                      ).fetchone() == (0, NOTE_MAX // 4)
    store.close()


def test_an_authors_versions_together_keep_the_text_of_their_newest_faults_only(tmp_path):
    store = LadderStore.open(tmp_path / "l.db", "dead-mans-draw", 2)
    db = store._db
    with db:
        for version in (1, 2, 3):
            db.execute("INSERT INTO submissions (author, version, entrant, status, created) VALUES (?, ?, ?, ?, ?)",
                       ("mallory", version, f"mallory-v{version}", "passed", 0.0))
        db.execute("INSERT INTO submissions (author, version, entrant, status, created) VALUES "
                   "('bob', 1, 'bob-v1', 'passed', 0.0)")
        for game in range(1, 61):  # each version faults in every game, with bob's beside them
            for entrant in ("mallory-v1", "mallory-v2", "mallory-v3", "bob-v1"):
                db.execute("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)", (game, entrant, "crash", 3, "d", "e" * 100))
            forget_old_texts(db, ["mallory-v1", "mallory-v2", "mallory-v3", "bob-v1"])
    kept = db.execute("SELECT entrant, count(*) FROM faults WHERE stderr_tail != '' GROUP BY entrant").fetchall()
    # mallory's newest 40 over its three versions (games 47-60, the newest version's first in
    # the last game); bob's own 20.
    assert TEXTS_PER_AUTHOR == 40 and dict(kept) == {"mallory-v1": 13, "mallory-v2": 13, "mallory-v3": 14,
                                                     "bob-v1": TEXTS_KEPT}
    assert db.execute("SELECT min(game) FROM faults WHERE stderr_tail != '' AND entrant LIKE 'mallory-%'"
                      ).fetchone() == (47,)
    store.close()


def test_a_page_shows_the_end_of_a_stderr_and_the_start_of_a_detail():
    fault = shown({"detail": "x" * 5000, "stderr_tail": "early\n" + "y" * 5000 + "\nlast words"})
    assert len(fault["stderr_tail"].encode()) <= SHOWN_STDERR and fault["stderr_tail"].endswith("last words")
    assert len(fault["detail"].encode()) <= 1024 and fault["detail"].startswith("xxx")
    assert cut("short", 10) == "short"
