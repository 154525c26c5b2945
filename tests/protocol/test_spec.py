"""protocol/SPEC.md stays true to the code: its example frames and its list of games."""

import re
from pathlib import Path

import msgpack
import pytest

import protocol
from engines import game_ids, game_package, get_game
from protocol.tools import dumps

SPEC_TEXT = dumps.SPEC.read_text(encoding="utf-8")
ROOT = Path(protocol.__file__).resolve().parent.parent


def test_spec_holds_exactly_the_generated_dumps():
    in_spec = dumps.blocks_in(SPEC_TEXT)
    generated = dumps.rendered()
    assert list(in_spec) == list(generated), "dump blocks missing, extra or out of order in SPEC.md"
    for name, body in generated.items():
        assert in_spec[name] == body, (
            f"SPEC.md example {name!r} is out of date: run python -m protocol.tools.dumps --write")


@pytest.mark.parametrize("name", list(dumps.examples()))
def test_each_dump_decodes_back_to_its_message(name):
    body = dumps.blocks_in(SPEC_TEXT)[name]
    raw = bytes.fromhex("".join(line[10:58] for line in body.splitlines() if re.match(r"[0-9a-f]{8}  ", line)))
    decoder = protocol.FrameDecoder()
    decoder.feed(raw)
    assert decoder.next() == dumps.examples()[name]
    assert decoder.pending() == 0


def test_bot_seed_example_uses_the_uint64_encoding():
    frame = protocol.encode(dumps.examples()["start"])
    assert b"\xcf" + dumps.EXAMPLE_BOT_SEED.to_bytes(8, "big") in frame
    assert dumps.EXAMPLE_BOT_SEED >= 1 << 63


def test_spec_states_the_version_the_code_speaks():
    assert f"Protocol v{protocol.PROTOCOL_VERSION_STRING}" in SPEC_TEXT.splitlines()[0]
    assert f"{protocol.DEFAULT_MAX_FRAME:_}".replace("_", " ") in SPEC_TEXT


def test_rewrite_replaces_only_dump_blocks():
    stale = SPEC_TEXT.replace("00000000  00 00 00 16", "00000000  ff ff ff ff", 1)
    assert stale != SPEC_TEXT
    assert dumps.rewrite(stale) == SPEC_TEXT


def _game_section() -> str:
    return SPEC_TEXT.split("## 12. Games", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_registered_game_has_its_page(game_id):
    """A game is a folder ``engines/<game>/`` and a page ``protocol/games/<game>.md`` in a
    folder above it (the product's, or its own: the tests' fourth game), naming every decision kind."""
    package = Path(game_package(game_id).__file__).resolve().parent
    pages = [folder / "protocol" / "games" / f"{game_id}.md" for folder in package.parents]
    page = next((page for page in pages if page.is_file()), None)
    assert page, f"{game_id} has no page: a game is engines/<game>/ and protocol/games/<game>.md"
    text = page.read_text(encoding="utf-8")
    missing = [kind for kind in get_game(game_id).decisions if f"`{kind}`" not in text]
    assert not missing, f"{page} does not name the decision kinds {missing}"


@pytest.mark.parametrize("game_id", game_ids())
def test_every_registered_game_is_linked_and_its_kinds_summarised(game_id):
    if ROOT / "engines" not in Path(game_package(game_id).__file__).resolve().parents:
        pytest.skip(f"{game_id} is kept outside the product (SPEC.md lists the arena's games only)")
    section = _game_section()
    entry = re.search(rf"^- \*\*`{re.escape(game_id)}`\*\*(.*?)(?=^- \*\*|\Z)", section, re.S | re.M)
    assert entry, f"SPEC.md section 12 has no entry for the registered game {game_id!r}"
    assert f"(games/{game_id}.md)" in entry[1]
    for kind in get_game(game_id).decisions:
        assert f"`{kind}`" in entry[1], (
            f"SPEC.md's summary of {game_id} does not mention its decision kind {kind!r}")


def test_dumps_are_plain_msgpack():
    # What a bot author's own msgpack library would do with the payload.
    for name, message in dumps.examples().items():
        payload = protocol.encode(message)[protocol.HEADER_SIZE:]
        assert msgpack.unpackb(payload, raw=False) == message, name


def test_game_pages_hold_exactly_the_generated_examples():
    from protocol.tools import sample
    for page in {page for page, _ in sample.GAME_EXAMPLES}:
        text = (sample.GAMES_DIR / page).read_text(encoding="utf-8")
        names = [match["name"] for match in sample.BLOCK.finditer(text)]
        assert sorted(names) == sorted(name for p, name in sample.GAME_EXAMPLES if p == page)
        assert sample.rewrite(page, text) == text, (
            f"protocol/games/{page} is out of date: run python -m protocol.tools.sample --write")


def test_a_real_request_is_the_first_the_predicate_accepts():
    from protocol.tools.sample import real_request
    kind, observation, events, legal = real_request(
        "opito-bay", 2, seed=1, options={"deals": 1}, wanted=lambda kind, observation, legal: True)
    assert (kind, observation["seat"], events[0]["type"]) == ("play", 0, "seats")
    with pytest.raises(LookupError):
        real_request("opito-bay", 2, seed=1, options={"deals": 1}, wanted=lambda *_: False)


def test_spec_lists_exactly_the_environment_a_bot_gets():
    """A bot written from SPEC.md alone knows which variables it gets (a Ruby bot once lost
    GEM_PATH): the documented list is the code's."""
    from arena.players._program import PASSED_ENV

    [line] = [line for line in SPEC_TEXT.splitlines() if line.startswith("Passed from the arena's environment:")]
    assert tuple(re.findall(r"`([A-Z_]+)`", line)) == PASSED_ENV


def test_spec_documents_every_manifest_key_and_limit_range():
    from arena.players._manifest import _KEYS, _LIMIT_KEYS, LIMIT_MAX
    from arena.sandbox._limits import Limits

    block = SPEC_TEXT.split("### 2.2 The manifest")[1].split("```toml\n")[1].split("```")[0]
    keys = {m[1] for m in re.finditer(r"^([a-z_]+) += ", block, re.M)}
    tables = set(re.findall(r"^\[([a-z]+)\]", block, re.M))
    assert keys | tables == _KEYS | _LIMIT_KEYS
    defaults = Limits()
    for key, high in LIMIT_MAX.items():
        value, low_high = re.search(rf"^{key} += (\d+) +# 0\.\.(\d+)", block, re.M).groups()
        assert int(low_high) == high, key
        assert int(value) == (getattr(defaults, key) or 0), key


def test_spec_says_where_the_program_is_found_and_the_code_agrees(tmp_path):
    """Issue 33: a name without '/' is looked up on PATH only, never in the manifest's folder."""
    from arena.players._manifest import BotSpec
    from arena.players._program import program_exists

    section = " ".join(SPEC_TEXT.split("### 2.2 The manifest")[1].split("### ")[0].split())
    assert "is looked up on the bot's `PATH`" in section and "**never in the manifest's folder**" in section
    (tmp_path / "my-bot").write_text("#!/bin/sh\n")
    (tmp_path / "my-bot").chmod(0o755)
    assert not program_exists(BotSpec("b", ("my-bot",), tmp_path, {"PATH": "/usr/bin"}))
    assert program_exists(BotSpec("b", ("./my-bot",), tmp_path, {"PATH": "/usr/bin"}))
    assert program_exists(BotSpec("b", ("sh",), tmp_path, {"PATH": "/usr/bin:/bin"}))


def test_spec_says_how_to_send_an_integer_beside_a_string_without_distinct_types():
    values = " ".join(SPEC_TEXT.split("## 4. Values")[1].split("## 5.")[0].split())
    assert "**Languages without distinct integer and string types**" in values
    assert '`["1", "S"]` (the seat as a string)' in values
    assert protocol.encode({"a": [1, "S"]}) != protocol.encode({"a": ["1", "S"]})


def test_spec_section_13_lists_every_starter_kit_with_the_python_one():
    from pathlib import Path

    section = SPEC_TEXT.split("## 13. A minimal bot")[1].split("```")[0]
    root = dumps.SPEC.parents[1]
    assert "Python (`python-random/bot.py`, on the\nPython SDK `bots/sdk.py`" in section
    assert (root / "examples" / "bots" / "python-random" / "bot.py").is_file() and (root / "bots" / "sdk.py").is_file()
    kits = {path.name.split("-")[0] for path in Path(root / "examples" / "bots").iterdir() if path.is_dir()}
    named = {"python": "Python", "js": "JavaScript", "c": "C", "rust": "Rust", "go": "Go", "java": "Java"}
    assert kits == set(named) and all(named[kit] in section for kit in kits)
