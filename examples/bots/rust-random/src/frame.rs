//! Protocol v1 framing (protocol/SPEC.md §3): a 4-byte big-endian length, then one msgpack map.

use std::io::{self, ErrorKind, Read, Write};

use crate::value::Value;

/// Frames larger than this are refused (the arena's own frames are a few KiB).
const MAX_FRAME: usize = 64 << 20;

/// The next message, or None at end of input.
pub fn read_message(input: &mut impl Read) -> io::Result<Option<Value>> {
    let mut header = [0u8; 4];
    match input.read_exact(&mut header) {
        Ok(()) => {}
        Err(error) if error.kind() == ErrorKind::UnexpectedEof => return Ok(None),
        Err(error) => return Err(error),
    }
    let length = u32::from_be_bytes(header) as usize;
    if length > MAX_FRAME {
        return Err(io::Error::new(ErrorKind::InvalidData, format!("frame of {length} bytes")));
    }
    let mut payload = vec![0u8; length];
    input.read_exact(&mut payload)?;
    rmp_serde::from_slice(&payload).map(Some).map_err(|e| io::Error::new(ErrorKind::InvalidData, e))
}

/// Write one message as a frame and flush it.
pub fn write_message(output: &mut impl Write, message: &Value) -> io::Result<()> {
    // to_vec_named: structs would become maps; Value is written as it is either way.
    let payload = rmp_serde::to_vec_named(message).map_err(|e| io::Error::new(ErrorKind::InvalidData, e))?;
    output.write_all(&(payload.len() as u32).to_be_bytes())?;
    output.write_all(&payload)?;
    output.flush()
}
