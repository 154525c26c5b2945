"""A bot's clock starts only once the bots frozen before it have stopped (issue 32, point 3),
or after :data:`arena.players._player.FREEZE_WAIT_S` at most; on trio's fake clock."""

import trio

from arena.players import _player


class Freezing:
    """Stands for a bot's cgroup: another bot's freeze takes ``calls`` looks to take hold."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.asked = 0

    def still_freezing(self, besides=None) -> bool:
        assert besides is self
        self.asked += 1
        return self.asked <= self.calls


async def test_a_request_waits_until_the_others_are_frozen(autojump_clock):
    began = trio.current_time()
    own = Freezing(calls=4)
    await _player._until_the_others_stopped(own)
    assert own.asked == 5 and trio.current_time() - began == 0.004


async def test_nothing_to_wait_for_costs_one_look_and_no_sleep(autojump_clock):
    began = trio.current_time()
    own = Freezing(calls=0)
    await _player._until_the_others_stopped(own)
    assert own.asked == 1 and trio.current_time() == began


async def test_a_freeze_that_never_takes_hold_delays_the_request_at_most_the_wait(autojump_clock):
    began = trio.current_time()
    await _player._until_the_others_stopped(Freezing(calls=10**6))
    assert abs(trio.current_time() - began - _player.FREEZE_WAIT_S) < 0.0015
