"""How ``arena doctor``'s probe is started (``arena.players._probe``) and what it is told
(``_probe_targets``): the program is the text of ``_probe_inside``, run isolated with the standard
library alone, in a view that shows nothing of the arena's own code; its task names every key the
program reads. (Its functions: ``test_probe_inside.py``; the whole probe in a real sandbox, and
the rows judged from it: ``test_doctor.py``.)"""

import ast
import os
import subprocess
import sys
from pathlib import Path

from arena.players import _probe_inside
from arena.players._probe import probe_command, program_text
from arena.players._probe_targets import Targets
from arena.sandbox._view import shown_paths

INSIDE = Path(_probe_inside.__file__)
ARENA = INSIDE.parents[1]
#: the most one argument of a command line may hold on Linux (MAX_ARG_STRLEN)
ARGUMENT_MAX = 32 * 4096


def test_the_probe_runs_the_text_of_its_module_isolated():
    command = probe_command()
    assert command[:4] == (sys.executable, "-I", "-S", "-c")
    assert command[4] == program_text()
    assert len(command[4].encode()) < ARGUMENT_MAX


def test_the_program_imports_the_standard_library_alone():
    tree = ast.parse(program_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] if node.level == 0 else "." for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names


def test_the_program_loads_as_the_sandbox_runs_it_and_does_nothing_unless_main():
    # -I -S, as run_probe starts it: its imports resolve without the arena or any site folder.
    # Named other than __main__, it only defines its functions.
    load = ("import sys; namespace = {'__name__': 'probe'}; exec(compile(sys.argv[1], 'probe', 'exec'), namespace);"
            "print(callable(namespace['main']))")
    result = subprocess.run([sys.executable, "-I", "-S", "-c", load, program_text()], capture_output=True,
                            text=True, timeout=60, cwd="/", env={})
    assert (result.returncode, result.stdout, result.stderr) == (0, "True\n", "")


def test_a_probe_is_shown_nothing_of_the_arenas_own_code(tmp_path):
    shown = shown_paths([*probe_command(), "{}"], tmp_path, {})
    assert [path for path in shown if ARENA == path or ARENA in path.parents] == []


def test_the_task_names_every_key_the_program_reads():
    tree = ast.parse(program_text())
    read = {node.slice.value for node in ast.walk(tree) if isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name) and node.value.id == "task" and isinstance(node.slice, ast.Constant)}
    targets = Targets()
    try:
        task = targets.task(["/srv/shown"])
    finally:
        targets.close()
    assert "port" in read and read <= set(task), read - set(task)
    assert task["shown"] == ["/srv/shown"] and task["arena_pid"] == os.getpid()


async def test_a_probe_past_its_bound_says_so_not_that_it_said_nothing():
    # On a loaded machine the probe may outrun its bound: the line says which (it said "the
    # sandbox probe said nothing" when .ci/run ran beside five benchmarks, load 30).
    import pytest

    from arena.players._probe import run_probe
    from arena.sandbox import detect_sandbox

    box = detect_sandbox("none")
    try:
        with pytest.raises(RuntimeError, match=r"^the sandbox probe did not finish in 0\.05 s"):
            await run_probe(box, limit_s=0.05)
    finally:
        box.close()
