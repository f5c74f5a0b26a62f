package dev.icebergflink.sink.dynamic;

import java.io.IOException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.BinaryRowDataSerializer;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Writes rows of changing types in Flink's binary row format: the arity, then the binary row (its
 * size and bytes, row kind included), so that a reader needs no type to read it back.
 *
 * <p>It exists because the dynamic sink's records carry rows of many tables and schemas through one
 * serializer. A row that is not binary yet is converted with a serializer of its type, kept per
 * type instance (the resolution hands the same instance for every row of one schema).
 *
 * <p>Not thread-safe: one per serializer instance.
 */
@Internal
final class BinaryRows {

    /** Distinct row types kept before the converters are dropped and built again. */
    private static final int MAX_TYPES = 256;

    private final Map<RowType, RowDataSerializer> converters = new IdentityHashMap<>();
    private final Map<Integer, BinaryRowDataSerializer> byArity = new HashMap<>();

    /**
     * {@code row} as a binary row; {@code rowType} is needed unless it already is one.
     *
     * @throws IllegalStateException when the row is not binary and its type is unknown
     */
    BinaryRowData toBinary(RowData row, RowType rowType) {
        if (row instanceof BinaryRowData binary) {
            return binary;
        }
        return converter(row, rowType).toBinaryRow(row);
    }

    /** A copy of {@code row} that shares nothing with it. */
    RowData copy(RowData row, RowType rowType) {
        if (row instanceof BinaryRowData binary) {
            return binary.copy();
        }
        return converter(row, rowType).copy(row);
    }

    void write(RowData row, RowType rowType, DataOutputView out) throws IOException {
        BinaryRowData binary = toBinary(row, rowType);
        out.writeInt(binary.getArity());
        serializer(binary.getArity()).serialize(binary, out);
    }

    BinaryRowData read(DataInputView in) throws IOException {
        int arity = in.readInt();
        if (arity < 0) {
            throw new IOException("Corrupt row: arity " + arity);
        }
        return serializer(arity).deserialize(in);
    }

    private RowDataSerializer converter(RowData row, RowType rowType) {
        if (rowType == null) {
            throw new IllegalStateException(
                    "A row of class "
                            + row.getClass().getName()
                            + " without its type cannot be serialized");
        }
        RowDataSerializer converter = converters.get(rowType);
        if (converter == null) {
            if (converters.size() >= MAX_TYPES) {
                converters.clear();
            }
            converter = new RowDataSerializer(rowType);
            converters.put(rowType, converter);
        }
        return converter;
    }

    private BinaryRowDataSerializer serializer(int arity) {
        return byArity.computeIfAbsent(arity, BinaryRowDataSerializer::new);
    }
}
