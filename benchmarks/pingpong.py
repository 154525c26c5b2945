"""Raw ping-pong between two plain Python processes over blocking pipes: the reference the
arena's own round trip is compared with. ``python pingpong.py FRAMES ROUNDS`` writes each
request frame of FRAMES (concatenated frames) to ``echo_bot.py`` and reads its reply; prints
one round-trip time in nanoseconds per line, then ``cpu`` and the CPU nanoseconds this
process used for all the rounds.

With ``--codec`` each round also packs the request from its message (msgpack, as the arena
must) and unpacks the reply: the least a Python arena could spend per move, codec included.

``python pingpong.py FRAMES --window START_NS END_NS`` measures throughput instead: it starts
its bot, waits until ``time.monotonic_ns()`` reaches START_NS, ping-pongs until END_NS and
prints ``rounds`` and their count (several of these started together share one window).

With ``--socket`` the bot's stdout is a TCP loopback socket that stamps what it receives
(``SO_TIMESTAMPNS``), as the arena's is (``arena/players/_process.py``), read with blocking ``recvmsg``
calls that take the stamp: the least any arena that stamps its replies in the kernel can spend
on the transport."""

import os
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import msgpack


def frames_of(blob: bytes) -> list[bytes]:
    frames, offset = [], 0
    while offset < len(blob):
        (length,) = struct.unpack_from(">I", blob, offset)
        frames.append(blob[offset:offset + 4 + length])
        offset += 4 + length
    return frames


def read_exact(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def window(frames: list[bytes], send: int, receive: int, start_ns: int, end_ns: int) -> int:
    """Round trips completed between ``start_ns`` and ``end_ns`` (monotonic clock)."""
    time.sleep(max(0.0, (start_ns - time.monotonic_ns()) / 1e9))
    rounds = 0
    while time.monotonic_ns() < end_ns:
        os.write(send, frames[rounds % len(frames)])
        (length,) = struct.unpack(">I", read_exact(receive, 4))
        read_exact(receive, length)
        rounds += 1
    return rounds


#: ``SO_TIMESTAMPNS`` (Linux; Python's socket module does not name it)
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def stamping_socket() -> tuple[socket.socket, socket.socket]:
    """A connected TCP loopback pair (reader, bot end) set up as the arena sets up a bot's stdout."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        bot_end = socket.create_connection(listener.getsockname())
        reader, _ = listener.accept()
    bot_end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    reader.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    return reader, bot_end


def read_stamped(reader: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk, _, _, _ = reader.recvmsg(size - len(data), socket.CMSG_SPACE(16))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def main() -> None:
    frames = frames_of(Path(sys.argv[1]).read_bytes())
    if sys.argv[2] == "--window":
        bot = subprocess.Popen([sys.executable, str(Path(__file__).with_name("echo_bot.py"))],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        rounds = window(frames, bot.stdin.fileno(), bot.stdout.fileno(), int(sys.argv[3]), int(sys.argv[4]))
        bot.stdin.close()
        bot.wait()
        print(f"rounds {rounds}")
        return
    rounds = int(sys.argv[2])
    codec = "--codec" in sys.argv[3:]
    messages = [msgpack.unpackb(frame[4:], strict_map_key=False) for frame in frames]
    pack = msgpack.Packer(use_bin_type=True).pack
    if "--socket" in sys.argv[3:]:
        reader, bot_end = stamping_socket()
        bot = subprocess.Popen([sys.executable, str(Path(__file__).with_name("echo_bot.py"))],
                               stdin=subprocess.PIPE, stdout=bot_end)
        bot_end.close()

        def read(size: int) -> bytes:
            return read_stamped(reader, size)
    else:
        bot = subprocess.Popen([sys.executable, str(Path(__file__).with_name("echo_bot.py"))],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        receive = bot.stdout.fileno()

        def read(size: int) -> bytes:
            return read_exact(receive, size)
    send = bot.stdin.fileno()
    clock = time.perf_counter_ns
    times = []
    cpu = time.process_time_ns()
    for index in range(rounds):
        frame, message = frames[index % len(frames)], messages[index % len(frames)]
        start = clock()
        if codec:
            payload = pack(message)
            frame = struct.pack(">I", len(payload)) + payload
        os.write(send, frame)
        (length,) = struct.unpack(">I", read(4))
        reply = read(length)
        if codec:
            msgpack.unpackb(reply, strict_map_key=False)
        times.append(clock() - start)
    cpu = time.process_time_ns() - cpu
    bot.stdin.close()
    bot.wait()
    sys.stdout.write("".join(f"{t}\n" for t in times) + f"cpu {cpu}\n")


if __name__ == "__main__":
    main()
