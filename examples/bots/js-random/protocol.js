// Protocol v1 framing (protocol/SPEC.md §3-4): a 4-byte big-endian length, then one msgpack map.
import { Decoder, Encoder } from "@msgpack/msgpack";

// useBigInt64: uint64/int64 values (bot_seed!) decode as BigInt instead of losing precision.
const decoder = new Decoder({ useBigInt64: true });
const encoder = new Encoder({ useBigInt64: true });

// Yields every message the arena sends on `stream`, in order; returns at end of input.
export async function* readMessages(stream) {
  let buffer = Buffer.alloc(0);
  for await (const chunk of stream) {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    while (buffer.length >= 4) {
      const length = buffer.readUInt32BE(0);
      if (buffer.length < 4 + length) break;
      yield decoder.decode(buffer.subarray(4, 4 + length));
      buffer = buffer.subarray(4 + length);
    }
  }
}

// Writes one message as a frame. Writes to a pipe are synchronous in Node on Linux and macOS,
// so the frame is out (flushed) when this returns.
export function writeMessage(stream, message) {
  const payload = encoder.encode(message);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(payload.length, 0);
  stream.write(Buffer.concat([header, payload]));
}
