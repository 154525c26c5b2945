package main

// Protocol v1 framing (protocol/SPEC.md §3): a 4-byte big-endian length, then one msgpack map.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/vmihailenco/msgpack/v5"
)

// maxFrame bounds the frames this bot accepts (the arena's own frames are a few KiB).
const maxFrame = 64 << 20

// Message is one protocol message: a map with string keys.
type Message = map[string]interface{}

// readMessage returns the next message, or io.EOF at end of input.
func readMessage(in *bufio.Reader) (Message, error) {
	var header [4]byte
	if _, err := io.ReadFull(in, header[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, io.EOF
		}
		return nil, err
	}
	length := binary.BigEndian.Uint32(header[:])
	if length > maxFrame {
		return nil, fmt.Errorf("frame of %d bytes", length)
	}
	payload := make([]byte, length)
	if _, err := io.ReadFull(in, payload); err != nil {
		return nil, err
	}
	decoder := msgpack.NewDecoder(bytes.NewReader(payload))
	// Loose: every integer decodes as int64 or uint64 (a bot_seed above 2^63 stays uint64).
	decoder.UseLooseInterfaceDecoding(true)
	var message Message
	if err := decoder.Decode(&message); err != nil {
		return nil, err
	}
	return message, nil
}

// writeMessage writes one message as a frame and flushes it.
func writeMessage(out *bufio.Writer, message Message) error {
	payload, err := msgpack.Marshal(message)
	if err != nil {
		return err
	}
	var header [4]byte
	binary.BigEndian.PutUint32(header[:], uint32(len(payload)))
	if _, err := out.Write(header[:]); err != nil {
		return err
	}
	if _, err := out.Write(payload); err != nil {
		return err
	}
	return out.Flush()
}
