"""Session-wide test setup."""

import signal


def pytest_sessionstart(session):
    """Give Ctrl-C back its default meaning in this process and so in every child it starts.

    A shell without job control starts background commands (``pytest ... &``, some CI runners)
    with SIGINT ignored, and an ignored signal stays ignored across exec: the arena processes
    that tests interrupt with SIGINT (tournament runs, ladder servers) would never see it."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
