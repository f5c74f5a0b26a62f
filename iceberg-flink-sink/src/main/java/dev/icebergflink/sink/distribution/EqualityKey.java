package dev.icebergflink.sink.distribution;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * The equality key of one row, as the compact bytes {@link EqualityKeyEncoder} makes of its key
 * columns: what the sink keys its upsert and changelog input by.
 *
 * <p>It exists because Flink sorts a keyed input by the key's serialized bytes in BATCH execution,
 * and compares only the first 8 of them cheaply (the normalized key): a {@code BinaryRowData} key
 * spends those 8 bytes on its length and header, so every comparison fell back to a byte-by-byte
 * read of both keys (two thirds of the sort's CPU time). Here the first bytes are the key's own
 * values, and keys whose columns all have a fixed width (BIGINT, INT, DATE, UUID, ...) serialize to
 * a fixed length, which Flink sorts with its fixed-length comparator.
 *
 * <p>Immutable; {@code equals} and {@code hashCode} depend on the bytes only, so the hash is the
 * same in every JVM, as Flink's key-group assignment requires.
 */
@Internal
public final class EqualityKey {

    private final byte[] bytes;
    private int hash;
    private boolean hashed;

    /** A key of {@code bytes}; the array is owned by the key from now on and must not change. */
    EqualityKey(byte[] bytes) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
    }

    /** The encoded key; not a copy, do not change it. */
    byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return this == other
                || (other instanceof EqualityKey key && Arrays.equals(bytes, key.bytes));
    }

    @Override
    public int hashCode() {
        if (!hashed) {
            hash = Arrays.hashCode(bytes);
            hashed = true;
        }
        return hash;
    }

    @Override
    public String toString() {
        return "EqualityKey[" + HexFormat.of().formatHex(bytes) + "]";
    }
}
