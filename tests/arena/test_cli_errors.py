"""Every user mistake, on every command, is one ``error:`` line on stderr, exit code 2, nothing
on stdout and no traceback (docs/commands.md, "The command line").

One table of bad invocations; ``{name}`` in an argument is a file of the fixture ``files``
(a real results database, replay files, broken manifests and tournament files, a folder, ...).
The expected text is a part of the one error line that names the problem.
"""

import os
import shutil
import sqlite3
import subprocess
import textwrap

import pytest
from typer.testing import CliRunner

from arena.cli._app import app

R = "python -m bots.random"
DMD = "dead-mans-draw"

CASES = [
    # -- usage errors of the command line itself --------------------------------------------------
    (["nosuch"], "no such command 'nosuch'"),
    (["--nope"], "no such option: --nope"),
    (["games", "--nope"], "no such option: --nope"),
    (["games", "--format", "xml"], "'xml' is not one of 'table', 'json'"),
    (["games", "extra"], "unexpected extra argument"),
    (["match"], "missing argument 'GAME'"),
    (["match", DMD], "missing argument 'BOT'"),
    (["match", DMD, R, R, "--seed", "abc"], "--seed must be an integer in 0..9223372036854775807, got 'abc'"),
    (["match", DMD, R, R, "--move-ms", "fast"], "--move-ms must be an integer in 1..86400000, got 'fast'"),
    (["match", DMD, R, R, "--fault-policy", "lenient"], "'lenient' is not one of 'forfeit', 'end-game', 'substitute'"),
    (["match", DMD, R, R, "--sandbox", "maybe"], "'maybe' is not one of 'auto', 'bwrap', 'strict', 'none'"),
    (["match", DMD, R, R, "--format", "xml"], "'xml' is not one of 'table', 'json'"),
    (["match", DMD, R, R, "--nope"], "no such option: --nope"),
    (["match", DMD, R, R, "--option"], "'--option' requires an argument"),
    (["match", DMD, R, R, "-o", "characters=true"], "no such option: -o"),
    (["tournament", "nosuch"], "no such command 'nosuch'"),
    (["tournament", "run"], "missing argument 'FILE'"),
    (["tournament", "resume"], "missing argument 'DB'"),
    (["tournament", "run", "{toml}", "--sandbox", "maybe"], "'maybe' is not one of"),
    (["tournament", "resume", "{db}", "--nope"], "no such option: --nope"),
    (["match", DMD, R, R, "--bot-seeds", "1"], "--bot-seeds needs one seed per seat (2), separated by commas"),
    (["match", DMD, R, R, "--bot-seeds", "1,2e3"], "--bot-seeds: the seed of seat 1 must be an integer in 0.."),
    (["rerun"], "missing argument 'DB|LADDER.toml'"),
    (["rerun", "{db}"], "missing argument 'KEY'"),
    (["rerun", "{missing}", "k"], "missing: neither a results database nor a ladder file (LADDER.toml)"),
    (["rerun", "{folder}", "k"], "folder: neither a results database nor a ladder file (LADDER.toml)"),
    (["rerun", "{foreign.db}", "k"], "foreign.db: not a pirate-arena results database"),
    (["rerun", "{missing}.toml", "k"], "missing.toml: cannot read ladder file"),
    (["rerun", "{db}", "nosuch"], "t.db: no game 'nosuch' (`arena replay "),
    (["rerun", "{db}", "{first_key}", "--seat", "x"], "--seat must look like SEAT=MANIFEST"),
    (["rerun", "{db}", "{first_key}", "--seat", "5={x_new.toml}"], "--seat 5: game "),
    (["rerun", "{corrupt_replay.db}", "{first_key}"], "corrupt_replay.db: the replay of game "),
    (["replay"], "missing argument 'FILE|DB'"),
    (["replay", "{db}", "a", "b"], "unexpected extra argument"),
    (["board"], "missing argument 'GAME'"),
    (["board", "karibik", "--seed", "abc"], "--seed must be an integer in 0..9223372036854775807, got 'abc'"),
    (["board", "karibik", "--seed", "-5"], "--seed must be an integer in 0..9223372036854775807, got -5"),
    (["board", "karibik", "--seed", str(2**64)], f"--seed must be an integer in 0..9223372036854775807, got {2**64}"),
    (["board", "karibik", "--step", "x"], "'--step'"),
    (["check-bot"], "missing argument 'BOT'"),
    (["check-bot", R, "--games-per", "abc"], "--games-per must be an integer in 1..10000, got 'abc'"),
    (["check-bot", R, "--sandbox", "maybe"], "'maybe' is not one of"),
    (["doctor", "--sandbox", "maybe"], "'maybe' is not one of"),
    (["doctor", "nope.toml"], "nope.toml: no such manifest file"),
    (["export", "{db}", "--format", "xml"], "'xml' is not one of 'pgn', 'jsonl', 'csv'"),
    (["export"], "missing argument 'DB'"),
    (["crosstable"], "missing argument 'DB'"),
    (["standings", "{db}", "--format", "xml"], "'xml' is not one of 'table', 'json', 'csv'"),
    (["standings", "{db}", "--bootstrap", "abc"], "'--bootstrap'"),
    (["sprt", "{db}"], "missing argument 'CANDIDATE'"),
    (["rate"], "missing argument 'FILE'"),
    (["compare", "{db}"], "missing argument 'A'"),
    (["compare", "{db}", "r0", "r1", "--format", "xml"], "'xml' is not one of 'table', 'json'"),
    # -- match: game, options, bots -----------------------------------------------------------------
    (["match", "no-such-game", R, R], "unknown game 'no-such-game'"),
    (["match", DMD, R, R, "--option", "nonsense=1"], "unknown option 'nonsense' for dead-mans-draw"),
    (["match", DMD, R, R, "--option", "characters=3"], "option 'characters' of dead-mans-draw must be true or false"),
    (["match", DMD, R, R, "--option", "novalue"], "--option must look like NAME=VALUE, got 'novalue'"),
    (["match", DMD, R, R, "--option", "=1"], "--option must look like NAME=VALUE, got '=1'"),
    (["match", DMD, R], "dead-mans-draw is for 2-8 players, not 1"),
    (["match", DMD, *[R] * 9], "dead-mans-draw is for 2-8 players, not 9"),
    (["match", "karibik", *[R] * 5], "karibik is for 2-4 players, not 5"),
    (["match", DMD, "{missing}.toml", R], "missing.toml: no such manifest file"),
    (["match", DMD, "python 'bot.py", R], "has an unbalanced quote"),
    (["match", DMD, "", R], "empty bot command"),
    (["match", DMD, "{unknown_key.toml}", R], "unknown key 'port'"),
    (["match", DMD, "{number_command.toml}", R], "'command' must be a non-empty string or list of strings"),
    (["match", DMD, "{list_number_command.toml}", R], "'command' must be a non-empty string or list of strings"),
    (["match", DMD, "{empty_command.toml}", R], "'command' must be a non-empty string or list of strings"),
    (["match", DMD, "{nul_command.toml}", R], "'command' must not contain NUL"),
    (["match", DMD, "{env_nul.toml}", R], "env"),
    (["match", DMD, "{env_equals.toml}", R], "'A=B'"),
    (["match", DMD, "{env_number.toml}", R], "'env' must be a table of string values"),
    (["match", DMD, "{env_empty_key.toml}", R], "env"),
    (["match", DMD, "{bad_syntax.toml}", R], "bad_syntax.toml"),
    (["match", DMD, "{latin1.toml}", R], "latin1.toml"),
    (["match", DMD, "{binary.toml}", R], "binary.toml"),
    (["match", DMD, "{folder.toml}", R], "folder.toml: is a folder, not a manifest file"),
    (["match", DMD, "{fifo.toml}", R], "fifo.toml: no such manifest file"),
    (["match", DMD, "{empty_name.toml}", R], "'name' must be 1-64 characters from A-Z a-z 0-9 . _ + -"),
    (["match", DMD, "{games_string.toml}", R], "'games' must be a list of game ids"),
    (["match", DMD, "{limits_negative.toml}", R], "'limits.memory_mb' must be an integer in 0..16777216 (0 = no limit), got -1"),
    (["match", DMD, "{limits_unknown.toml}", R], "unknown key 'limits.gpus'"),
    (["match", DMD, R, R, "--replay", "{folder}"], "is a folder, not a file"),
    (["match", DMD, R, R, "--replay", "{missing}/game.json"], "does not exist"),
    # numbers: each option's range is arena/tournament/_ranges.py's (tested there in full)
    (["match", DMD, R, R, "--move-ms", "0"], "--move-ms must be an integer in 1..86400000, got 0"),
    (["match", DMD, R, R, "--move-ms", str(10**25)], f"--move-ms must be an integer in 1..86400000, got {10**25}"),
    (["match", DMD, R, R, "--reserve-ms", "-1"], "--reserve-ms must be an integer in 0..86400000, got -1"),
    (["match", DMD, R, R, "--reserve-ms", "1e3"], "--reserve-ms must be an integer in 0..86400000, got '1e3'"),
    (["match", DMD, R, R, "--startup-ms", "0"], "--startup-ms must be an integer in 1..600000, got 0"),
    (["match", DMD, R, R, "--substitutions", "-5"], "--substitutions must be an integer in 0..1000000, got -5"),
    (["match", DMD, R, R, "--seed", "-1"], "--seed must be an integer in 0..9223372036854775807, got -1"),
    (["check-bot", R, "--games-per", "-1"], "--games-per must be an integer in 1..10000, got -1"),
    (["check-bot", R, "--games-per", "0"], "--games-per must be an integer in 1..10000, got 0"),
    (["tournament", "run", "{toml}", "--concurrency", "2000"], "--concurrency must be an integer in 0..1024, got 2000"),
    (["tournament", "resume", "{db}", "--concurrency", "-1"], "--concurrency must be an integer in 0..1024, got -1"),
    # -- replay ------------------------------------------------------------------------------------
    (["replay", "{missing}"], "cannot read (No such file or directory)"),
    (["replay", "{folder}"], "is a folder, not a replay file"),
    (["replay", "{fifo.toml}"], "fifo.toml: not a regular file"),
    (["replay", "/dev/zero"], "/dev/zero: not a regular file"),
    (["replay", "{notes.txt}"], "not a replay file (not JSON (Expecting value: line 1 column 1))"),
    (["replay", "{binary.toml}"], "not a replay file"),
    (["replay", "{latin1.toml}"], "not a replay file"),
    (["replay", "{empty.json}"], "not a replay file (no 'replay' object)"),
    (["replay", "{list.json}"], "not a replay file (not a JSON object)"),
    (["replay", "{unknown_game.json}"], "unknown game 'no-such-game'"),
    (["replay", "{dmd.json}", "r0"], "a game key ('r0') is only for a results database"),
    (["replay", "{db}", "nosuch"], "no game 'nosuch'"),
    (["replay", "{foreign.db}"], "not a pirate-arena results database"),
    (["replay", "{foreign.db}", "x"], "not a pirate-arena results database"),
    (["replay", "{corrupt_replay.db}", "{first_key}"], "is corrupt"),
    (["replay", "{corrupt_row.db}"], "is corrupt"),
    # -- board -------------------------------------------------------------------------------------
    (["board", "nosuch"], "unknown game 'nosuch'"),
    (["board", DMD], "dead-mans-draw has no board to draw; games with one: ['karibik']"),
    (["board", "karibik", "--step", "3"], "--step needs --replay"),
    (["board", "karibik", "--game", "x"], "--key needs --replay"),  # --game: the old spelling of --key
    (["board", "karibik", "--key", "x"], "--key needs --replay"),
    (["board", "karibik", "--step", "-1", "--replay", "{karibik.json}"], "--step must be 0 or more, got -1"),
    (["board", "karibik", "--step", "5", "--replay", "{karibik.json}"], "--step must be at most 0"),
    (["board", "karibik", "--replay", "{dmd.json}"], "is a replay of dead-mans-draw, not karibik"),
    (["board", "karibik", "--replay", "{karibik.json}", "--seed", "3"], "drop --seed"),
    (["board", "karibik", "--replay", "{missing}"], "cannot read (No such file or directory)"),
    (["board", "karibik", "--replay", "{db}"], "name a game"),
    (["board", "karibik", "--replay", "{db}", "--game", "nosuch"], "no game 'nosuch'"),
    (["board", "karibik", "--replay", "{db}", "--game", "{first_key}"], "is a replay of dead-mans-draw, not karibik"),
    (["board", "karibik", "--players", "0"], "--players must be 2-4 for karibik, got 0"),
    (["board", "karibik", "--seed", "1", "--players", "9"], "--players must be 2-4 for karibik, got 9"),
    (["board", "karibik", "--seed", "1", "--players", "-3"], "--players must be 2-4 for karibik, got -3"),
    (["board", "karibik", "--option", "nonsense=1"], "unknown option 'nonsense' for karibik"),
    (["board", "karibik", "--svg", "{missing}/x.svg"], "does not exist"),
    (["board", "karibik", "--svg", "{folder}"], "is a folder, not a file"),
    # -- check-bot ---------------------------------------------------------------------------------
    (["check-bot", R, "--game", "nosuch"], "unknown game 'nosuch'"),
    (["check-bot", "{missing}.toml"], "no such manifest file"),
    (["check-bot", "{unknown_key.toml}"], "unknown key 'port'"),
    (["check-bot", "{env_equals.toml}"], "'A=B'"),
    (["check-bot", R, "--move-ms", "0"], "--move-ms must be an integer in 1..86400000, got 0"),
    # -- tournaments -------------------------------------------------------------------------------
    (["tournament", "run", "{missing}.toml"], "missing.toml"),
    (["tournament", "run", "{folder}"], "folder"),
    (["tournament", "run", "{fifo.toml}"], "fifo.toml: cannot read tournament file (not a regular file)"),
    (["tournament", "run", "/dev/zero"], "/dev/zero: cannot read tournament file (not a regular file)"),
    (["tournament", "run", "{latin1.toml}"], "latin1.toml"),
    (["tournament", "run", "{binary.toml}"], "binary.toml"),
    (["tournament", "run", "{bad_syntax.toml}"], "bad_syntax.toml"),
    (["tournament", "run", "{t_unknown_key.toml}"], "key 'colour' is unknown"),
    (["tournament", "run", "{t_no_game.toml}"], "game"),
    (["tournament", "run", "{t_unknown_game.toml}"], "unknown game 'chess'"),
    (["tournament", "run", "{t_number_command.toml}"], "command"),
    (["tournament", "run", "{t_env_equals.toml}"], "'A=B'"),
    (["tournament", "run", "{t_missing_folder.toml}"], "no-such-folder"),
    (["tournament", "run", "{t_other.toml}"], "holds results of a different tournament"),
    (["tournament", "resume", "{missing}.db"], "no such database"),
    (["tournament", "resume", "{folder}"], "is a folder, not a database"),
    (["tournament", "resume", "{notes.txt}"], "not a pirate-arena results database"),
    (["tournament", "resume", "{foreign.db}"], "not a pirate-arena results database"),
    (["tournament", "extend"], "missing argument 'DB'"),
    (["tournament", "extend", "{missing}.db", "--rounds", "1"], "missing.db: no such database"),
    (["tournament", "extend", "{notes.txt}", "--rounds", "1"], "not a pirate-arena results database"),
    (["tournament", "extend", "{db}"], "nothing to add: give --rounds N, --entrant FILE or --candidate FILE"),
    (["tournament", "extend", "{db}", "--rounds", "0"], "--rounds must be an integer in 1..1000000, got 0"),
    (["tournament", "extend", "{db}", "--rounds", "-1"], "--rounds must be an integer in 1..1000000, got -1"),
    (["tournament", "extend", "{db}", "--rounds", "x"], "--rounds must be an integer in 1..1000000, got 'x'"),
    (["tournament", "extend", "{db}", "--rounds", "1000000"], "--rounds 1000000 would make 1000001 rounds"),
    (["tournament", "extend", "{db}", "--entrant", "{missing}.toml"], "missing.toml: cannot read entrant file"),
    (["tournament", "extend", "{db}", "--entrant", "{number_command.toml}"], "'command' must be a non-empty"),
    (["tournament", "extend", "{db}", "--entrant", "{x_other_r1.toml}"],
     "an entrant named 'r1' is already in the tournament with another command"),
    (["tournament", "extend", "{db}", "--entrant", "{x_same_r1.toml}"],
     "nothing to add: every entrant given is already in the tournament"),
    (["tournament", "extend", "{db}", "--entrant", "{x_karibik.toml}"],
     "'game' is 'karibik', but the tournament plays 'dead-mans-draw'"),
    (["tournament", "extend", "{db}", "--entrant", "{x_players.toml}"],
     "'players' is 3, but the tournament's tables have 2 seats"),
    (["tournament", "extend", "{db}", "--entrant", "{x_plays_karibik.toml}"], "plays ['karibik'], not 'dead-mans-draw'"),
    (["tournament", "extend", "{db}", "--entrant", "{x_time.toml}"], "key 'time' cannot be given when extending"),
    (["tournament", "extend", "{db}", "--candidate", "{x_new.toml}"], "--candidate is for a gauntlet"),
    # -- reading results ---------------------------------------------------------------------------
    (["crosstable", "{missing}.db"], "no such database"),
    (["crosstable", "{notes.txt}"], "not a pirate-arena results database"),
    (["crosstable", "{folder}"], "is a folder, not a database"),
    (["crosstable", "{corrupt_row.db}"], "is corrupt"),
    (["crosstable", "{empty.db}"], "no finished games yet"),
    (["export", "{missing}.db"], "no such database"),
    (["export", "{foreign.db}"], "not a pirate-arena results database"),
    (["export", "{corrupt_row.db}"], "is corrupt"),
    (["export", "{db}", "-o", "{missing}/x.pgn"], "does not exist"),
    (["export", "{db}", "-o", "{folder}"], "is a folder, not a file"),
    (["export", "{db}", "--format", "pgn", "--replays"], "--replays is for --format jsonl"),
    (["export", "{db}", "--format", "jsonl", "--replays", "-o", "{folder}"], "is a folder, not a file"),
    (["standings", "{missing}.db"], "no such database"),
    (["standings", "{notes.txt}"], "not a pirate-arena results database"),
    (["standings", "{corrupt_row.db}"], "is corrupt"),
    (["standings", "{empty.db}"], "no finished games yet"),
    (["sprt", "{missing}.db", "a", "b"], "no such database"),
    (["sprt", "{db}", "r0", "nobody"], "no games between 'r0' and 'nobody'"),
    (["compare", "{missing}.db", "a", "b"], "no such database"),
    (["compare", "{db}", "r0", "nobody"], "no games between 'r0' and 'nobody'"),
    # -- report and view ---------------------------------------------------------------------------
    (["report"], "missing argument 'DB'"),
    (["report", "{missing}.db"], "no such database"),
    (["report", "{notes.txt}"], "not a pirate-arena results database"),
    (["report", "{db}", "-o", "{missing}/r.html"], "does not exist"),
    (["report", "{db}", "-o", "{folder}"], "folder"),
    (["report", "{db}", "--replay-mb", "lots"], "'--replay-mb'"),
    (["view"], "missing argument 'FILE|DB'"),
    (["view", "{missing}"], "cannot read (No such file or directory)"),
    (["view", "{notes.txt}"], "not a replay file"),
    (["view", "{db}"], "name the game with --key KEY"),
    (["view", "{db}", "--game", "nosuch"], "nosuch"),
    (["view", "{dmd.json}", "-o", "{missing}/g.html"], "does not exist"),
    # -- ladder -------------------------------------------------------------------------------------
    (["ladder", "nosuch"], "no such command 'nosuch'"),
    (["ladder", "serve"], "missing argument 'LADDER'"),
    (["ladder", "serve", "{missing}.toml"], "missing.toml: cannot read ladder file (No such file or directory)"),
    (["ladder", "serve", "{l_unknown_key.toml}"], "key 'colour' is unknown"),
    (["ladder", "serve", "{toml}"], "key 'entrants' is unknown"),
    (["ladder", "serve", "{l_bad_port.toml}"], "key 'port' must be an integer in 0..65535, got 99999"),
    (["ladder", "serve", "{l_bad_time.toml}"], "key 'time.move_ms' must be an integer in 1..86400000, got 'fast'"),
    (["ladder", "serve", "{l_bad_bot.toml}"], "bot 1: an author name must be"),
    (["ladder", "serve", "{l_unknown_game.toml}"], "unknown game 'chess'"),
    (["ladder", "serve", "{l_ok.toml}", "--port", "70000"], "--port must be an integer in 0..65535, got 70000"),
    (["ladder", "serve", "{l_ok.toml}", "--sandbox", "maybe"], "'maybe' is not one of"),
    (["ladder", "serve", "{l_tournament_db.toml}"], "not a pirate-arena ladder database"),
    (["ladder", "token", "list"], "missing argument 'LADDER'"),
    (["ladder", "token", "add", "{l_ok.toml}", "../x"], "token: an author name must be"),
    (["ladder", "token", "add", "{l_ok.toml}", "a" * 41], "an author name has at most 40 characters"),
    (["ladder", "token", "add", "{l_ok.toml}", "bob-v2"], "an author name must not end like a version"),
    (["ladder", "token", "revoke", "{l_ok.toml}", "nobody"], "'nobody' has no live token"),
    (["ladder", "submit", "ftp://x", "{unknown_key.toml}"], "URL must start with http:// or https://"),
    (["ladder", "submit", "http://127.0.0.1:9", "{missing}.toml", "--token", "x"], "no such manifest file"),
    (["ladder", "submit", "http://127.0.0.1:9", "{unknown_key.toml}", "--token", ""], "no token: set ARENA_LADDER_TOKEN"),
    (["ladder", "submit", "http://127.0.0.1:9", "{l_ok.toml}", "--token", "x"], "cannot reach the ladder at http://127.0.0.1:9"),
    (["play"], "missing argument 'GAME'"),
    (["play", "nosuch", "--no-open"], "unknown game 'nosuch'"),
    (["play", DMD, R, "--seat", "5", "--no-open"], "--seat must be a seat from 0 to 1"),
    (["play", DMD, R, "--port", "-1", "--no-open"], "--port must be an integer in 0..65535, got -1"),
    (["init", "{toml}"], "toml.toml is not a folder; give a folder for the quickstart's files"),
    (["init", "{folder}", "extra"], "unexpected extra argument"),
]

TOURNAMENT = """\
game = "dead-mans-draw"
players = 2
rounds = 1
seed = 3
concurrency = 2
database = "{database}"
{extra}
[options]
characters = false

[[entrants]]
name = "r0"
command = "python -m bots.random"

[[entrants]]
name = "r1"
command = {command}
{entrant_extra}
"""


def _tournament(database="t.db", extra="", command='"python -m bots.random"', entrant_extra="") -> str:
    return TOURNAMENT.format(database=database, extra=extra, command=command, entrant_extra=entrant_extra)


MANIFESTS = {
    "unknown_key.toml": 'command = "x"\nport = 3\n',
    "number_command.toml": "command = 5\n",
    "list_number_command.toml": 'command = ["python", 5]\n',
    "empty_command.toml": "command = []\n",
    "nul_command.toml": 'command = ["python", "a\\u0000b"]\n',
    "env_nul.toml": 'command = "x"\n[env]\nA = "x\\u0000y"\n',
    "env_equals.toml": 'command = "x"\n[env]\n"A=B" = "x"\n',
    "env_number.toml": 'command = "x"\n[env]\nA = 1\n',
    "env_empty_key.toml": 'command = "x"\n[env]\n"" = "x"\n',
    "bad_syntax.toml": 'command = "x\n',
    "empty_name.toml": 'command = "x"\nname = ""\n',
    "games_string.toml": 'command = "x"\ngames = "karibik"\n',
    "limits_negative.toml": 'command = "x"\n[limits]\nmemory_mb = -1\n',
    "limits_unknown.toml": 'command = "x"\n[limits]\ngpus = 1\n',
    "t_unknown_key.toml": _tournament(extra='colour = "red"'),
    "t_no_game.toml": _tournament().replace('game = "dead-mans-draw"\n', ""),
    "t_unknown_game.toml": _tournament().replace('"dead-mans-draw"', '"chess"'),
    "t_number_command.toml": _tournament(command="5"),
    "t_env_equals.toml": _tournament(entrant_extra='[entrants.env]\n"A=B" = "x"'),
    "t_missing_folder.toml": _tournament(database="no-such-folder/t.db"),
    "t_other.toml": _tournament(database="t.db").replace("seed = 3", "seed = 4"),
    "toml": _tournament(),
    "l_ok.toml": 'game = "dead-mans-draw"\n',
    "l_unknown_key.toml": 'game = "dead-mans-draw"\ncolour = "red"\n',
    "l_bad_port.toml": 'game = "dead-mans-draw"\nport = 99999\n',
    "l_bad_time.toml": 'game = "dead-mans-draw"\n[time]\nmove_ms = "fast"\n',
    "l_bad_bot.toml": 'game = "dead-mans-draw"\n[[bots]]\nauthor = "../x"\nmanifest = "unknown_key.toml"\n',
    "l_unknown_game.toml": 'game = "chess"\n',
    "l_tournament_db.toml": 'game = "dead-mans-draw"\ndatabase = "t.db"\n',
    "x_other_r1.toml": 'name = "r1"\ncommand = "python -m bots.heuristic"\n',
    "x_same_r1.toml": '[[entrants]]\nname = "r1"\ncommand = "python -m bots.random"\n',
    "x_karibik.toml": 'game = "karibik"\n[[entrants]]\nname = "k"\ncommand = "x"\n',
    "x_players.toml": 'players = 3\n[[entrants]]\nname = "k"\ncommand = "x"\n',
    "x_plays_karibik.toml": 'name = "k"\ncommand = "x"\ngames = ["karibik"]\n',
    "x_time.toml": '[time]\nmove_ms = 5\n[[entrants]]\nname = "k"\ncommand = "x"\n',
    "x_new.toml": 'name = "k"\ncommand = "x"\n',
    "notes.txt": "hello\n",
    "empty.json": "{}",
    "list.json": "[1, 2]",
    "unknown_game.json": '{"replay": {"game": "no-such-game", "players": 2, "seed": 1, "options": {}, "steps": []}}',
    "dmd.json": '{"replay": {"game": "dead-mans-draw", "players": 2, "seed": 1, "options": {}, "steps": []}}',
    "karibik.json": '{"replay": {"game": "karibik", "players": 2, "seed": 1, "options": {}, "steps": []}}',
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The files the table names, ``{name}`` -> path (text)."""
    folder = tmp_path_factory.mktemp("cli-errors")
    paths = {}
    for name, text in MANIFESTS.items():
        path = folder / (name if "." in name else f"{name}.toml")
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)
        paths[name] = path
    (folder / "latin1.toml").write_bytes('name = "Müller"\ncommand = "x"\n'.encode("latin-1"))
    (folder / "binary.toml").write_bytes(bytes(range(256)))
    (folder / "folder.toml").mkdir()
    (folder / "folder").mkdir()
    os.mkfifo(folder / "fifo.toml")  # reading it would block for ever
    for name in ("latin1.toml", "binary.toml", "folder.toml", "folder", "fifo.toml"):
        paths[name] = folder / name
    paths["missing"] = folder / "missing"

    # A real results database: two games between r0 and r1.
    subprocess.run(["arena", "tournament", "run", str(paths["toml"]), "-q", "--sandbox", "none"],
                   check=True, capture_output=True, cwd=folder, timeout=300)
    paths["db"] = folder / "t.db"
    with sqlite3.connect(paths["db"]) as db:
        paths["first_key"] = db.execute("SELECT key FROM games ORDER BY key").fetchone()[0]
    for name, update in [("corrupt_row.db", "UPDATE games SET ranks = '[1,'"),
                         ("corrupt_replay.db", "UPDATE games SET replay = x'c1'"),
                         ("empty.db", "DELETE FROM games")]:
        shutil.copy(paths["db"], folder / name)
        with sqlite3.connect(folder / name) as db:
            db.execute(update)
        paths[name] = folder / name
    with sqlite3.connect(folder / "foreign.db") as db:
        db.execute("CREATE TABLE things (a)")
    paths["foreign.db"] = folder / "foreign.db"
    return {name: str(path) for name, path in paths.items()}


def _fill(arg: str, files: dict[str, str]) -> str:
    for name, path in files.items():
        arg = arg.replace("{" + name + "}", path)
    assert "{" not in arg, arg
    return arg


@pytest.mark.parametrize("args,expected", CASES, ids=[" ".join(args)[:60] for args, _ in CASES])
def test_user_error_is_one_line(files, args, expected, monkeypatch):
    monkeypatch.chdir(files["folder"])
    args = [_fill(arg, files) for arg in args]
    result = CliRunner().invoke(app, args, prog_name="arena", env={"COLUMNS": "100"})
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert _fill(expected, files) in lines[0]


def test_the_table_covers_every_command():
    assert len(CASES) >= 100
    commands = {args[0] for args, _ in CASES}
    registered = {command.name for command in app.registered_commands} | {"tournament", "nosuch", "--nope"}
    assert registered - commands == set()


def test_report_default_budget_is_the_report_packages():
    from arena.cli import _report as _cli_report
    from arena import report

    assert _cli_report.REPLAY_MB * 1e6 == report.REPLAY_BUDGET


def test_help_is_not_an_error():
    for args in (["-h"], ["--help"], ["match", "-h"], ["tournament", "run", "--help"]):
        result = CliRunner().invoke(app, args, prog_name="arena")
        assert result.exit_code == 0 and result.stdout.startswith("\n Usage: arena") or "Usage: arena" in result.stdout


def test_no_command_shows_the_help():
    for args in ([], ["tournament"]):
        result = CliRunner().invoke(app, args, prog_name="arena")
        assert result.exit_code == 0 and "Usage: arena" in result.stdout and result.stderr == ""


def test_version():
    result = CliRunner().invoke(app, ["--version"], prog_name="arena")
    assert result.exit_code == 0 and result.stdout.startswith("pirate-arena ")


def test_a_subprocess_gets_the_same_one_line(tmp_path):
    result = subprocess.run(["arena", "match", DMD, R, R, "--seed", "abc"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "--seed must be an integer in" in result.stderr
