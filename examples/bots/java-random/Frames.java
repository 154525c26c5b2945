// Protocol v1 framing (protocol/SPEC.md §3): a 4-byte big-endian length, then one msgpack map.
// Values come back as Map<String, Object>, List<Object>, Long (BigInteger above 2^63 - 1),
// Double, String, byte[], Boolean or null, and go out the same way.

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ImmutableValue;
import org.msgpack.value.IntegerValue;
import org.msgpack.value.Value;

final class Frames {
    /** The largest frame this bot accepts (the arena's own frames are a few KiB). */
    static final int MAX_FRAME = 64 << 20;

    private Frames() {
    }

    /** The next message, or null at end of input. */
    static Map<String, Object> read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int length;
        try {
            length = data.readInt();
        } catch (EOFException end) {
            return null;
        }
        if (length < 0 || length > MAX_FRAME) {
            throw new IOException("frame of " + Integer.toUnsignedString(length) + " bytes");
        }
        byte[] payload = new byte[length];
        data.readFully(payload);
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(payload)) {
            Object message = toJava(unpacker.unpackValue());
            if (!(message instanceof Map)) {
                throw new IOException("a frame that is not a map");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) message;
            return map;
        }
    }

    /** Write one message as a frame and flush it (an unflushed reply is never received). */
    static void write(OutputStream out, Map<String, Object> message) throws IOException {
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        pack(packer, message);
        byte[] payload = packer.toByteArray();
        out.write(new byte[] {(byte) (payload.length >>> 24), (byte) (payload.length >>> 16),
            (byte) (payload.length >>> 8), (byte) payload.length});
        out.write(payload);
        out.flush();
    }

    static Object toJava(Value value) {
        switch (value.getValueType()) {
            case NIL:
                return null;
            case BOOLEAN:
                return value.asBooleanValue().getBoolean();
            case INTEGER:
                IntegerValue integer = value.asIntegerValue();
                return integer.isInLongRange() ? (Object) integer.toLong() : integer.toBigInteger();
            case FLOAT:
                return value.asFloatValue().toDouble();
            case STRING:
                return value.asStringValue().asString();
            case BINARY:
                return value.asBinaryValue().asByteArray();
            case ARRAY:
                List<Object> list = new ArrayList<>();
                for (Value item : value.asArrayValue()) {
                    list.add(toJava(item));
                }
                return list;
            case MAP:
                Map<String, Object> map = new LinkedHashMap<>();
                for (Map.Entry<Value, Value> entry : value.asMapValue().entrySet()) {
                    map.put(entry.getKey().toString(), toJava(entry.getValue()));
                }
                return map;
            default:
                return ((ImmutableValue) value).toString();
        }
    }

    static void pack(MessageBufferPacker packer, Object value) throws IOException {
        if (value == null) {
            packer.packNil();
        } else if (value instanceof Boolean) {
            packer.packBoolean((Boolean) value);
        } else if (value instanceof Long || value instanceof Integer) {
            packer.packLong(((Number) value).longValue());
        } else if (value instanceof BigInteger) {
            packer.packBigInteger((BigInteger) value);
        } else if (value instanceof Double) {
            packer.packDouble((Double) value);
        } else if (value instanceof String) {
            packer.packString((String) value);
        } else if (value instanceof byte[]) {
            packer.packBinaryHeader(((byte[]) value).length);
            packer.writePayload((byte[]) value);
        } else if (value instanceof List) {
            List<?> list = (List<?>) value;
            packer.packArrayHeader(list.size());
            for (Object item : list) {
                pack(packer, item);
            }
        } else if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            packer.packMapHeader(map.size());
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                packer.packString(String.valueOf(entry.getKey()));
                pack(packer, entry.getValue());
            }
        } else {
            throw new IOException("cannot encode a " + value.getClass().getName());
        }
    }
}
