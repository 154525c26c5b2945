"""What the ladder keeps of a fault's text is bounded per version (arena/ladder/_faulttext.py)."""

from arena.ladder._faulttext import NOTE_MAX, SHOWN_STDERR, TEXTS_KEPT, cut, forget_all_texts, forget_old_texts, shown
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


def test_a_page_shows_the_end_of_a_stderr_and_the_start_of_a_detail():
    fault = shown({"detail": "x" * 5000, "stderr_tail": "early\n" + "y" * 5000 + "\nlast words"})
    assert len(fault["stderr_tail"].encode()) <= SHOWN_STDERR and fault["stderr_tail"].endswith("last words")
    assert len(fault["detail"].encode()) <= 1024 and fault["detail"].startswith("xxx")
    assert cut("short", 10) == "short"
