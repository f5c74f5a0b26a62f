package dev.icebergflink.data.row;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Accessor;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.SerializableFunction;

/**
 * Finds the partition of Flink rows on the write path, cheaply enough to do for every row: as a
 * reusable {@link Key} to look up per-partition state (a writer) and as a {@link Key#hashCode()
 * hash} that is the same in every JVM (to send all rows of a partition to one writer), and, only
 * when a partition is new, as Iceberg's {@link PartitionKey}.
 *
 * <p>It exists because Iceberg's {@link PartitionKey} over a {@link RowDataStructLike} turns every
 * string source value into a new {@link String} before its identity transform, and a map keyed by
 * partition structs compares those strings char by char: for a table partitioned by a string
 * column, that was most of the per-row routing cost of the partitioned append. Here an identity
 * partition of a top-level string column keeps the row's {@link StringData} (compared by its UTF-8
 * bytes, hashed like the equal {@link String}, with no copy or decoding for ASCII values); every
 * other partition field holds Iceberg's transformed value (the source value in Iceberg's
 * representation through the field's bound transform, as {@link PartitionKey} computes it).
 *
 * <p>Equal keys always belong to the same partition. Equal partitions have keys with equal hashes;
 * their keys are equal too, except possibly for identity partitions of strings that are not
 * well-formed UTF-8 (distinct bytes may decode to the same string), so map the key to its {@link
 * #partition(RowData) PartitionKey} before creating anything per partition. The hash of a one-field
 * key is the field's hash: {@link String#hashCode()} of a string value, {@code hashCode()} of
 * Iceberg's value otherwise (0 for null); all the value types partition transforms return (numbers,
 * booleans, {@code BigDecimal}, {@code ByteBuffer}, {@code UUID}) hash by content, so the hash is
 * the same in every JVM.
 *
 * <p>Instances are not thread-safe; the keys and partition keys they return are reused by the next
 * call unless detached.
 */
@Internal
public final class RowDataPartitioner {

    private final PartitionKey partitionKey;
    private final RowDataStructLike view;
    // per partition field: the top-level position of an identity-partitioned string column, or -1
    private final int[] stringPositions;
    // per other partition field: how Iceberg computes its value, and whether the value is a string
    private final Accessor<StructLike>[] accessors;
    private final SerializableFunction<Object, Object>[] transforms;
    private final boolean[] stringResults;
    private final Key probe;

    /**
     * @param spec the partition spec
     * @param schema the schema the spec's source ids refer to
     * @param rowType the type of the rows; its fields match {@code schema}'s columns by position
     * @throws IllegalArgumentException when the row type does not match the schema, or the spec
     *     cannot partition rows of the schema
     */
    public RowDataPartitioner(PartitionSpec spec, Schema schema, RowType rowType) {
        this.partitionKey = new PartitionKey(spec, schema);
        this.view = new RowDataStructLike(schema.asStruct(), rowType);
        List<PartitionField> partitionFields = spec.fields();
        int size = partitionFields.size();
        this.stringPositions = new int[size];
        this.accessors = newAccessors(size);
        this.transforms = newFunctions(size);
        this.stringResults = new boolean[size];
        List<Types.NestedField> columns = schema.columns();
        for (int i = 0; i < size; i++) {
            PartitionField field = partitionFields.get(i);
            int position = topLevelPosition(columns, field.sourceId());
            if (field.transform().isIdentity()
                    && position >= 0
                    && columns.get(position).type().typeId() == Type.TypeID.STRING
                    && isCharacterString(rowType.getTypeAt(position).getTypeRoot())) {
                stringPositions[i] = position;
            } else {
                stringPositions[i] = -1;
                accessors[i] = schema.accessorForField(field.sourceId());
                transforms[i] = bind(field, accessors[i]);
                stringResults[i] =
                        field.transform().getResultType(accessors[i].type()).typeId()
                                == Type.TypeID.STRING;
            }
        }
        this.probe = new Key(new Object[size]);
    }

    /** Whether the spec has no partition fields (every row has the same, empty, key). */
    public boolean isUnpartitioned() {
        return stringPositions.length == 0;
    }

    /**
     * The partition of {@code row} as a key; the same instance is refilled by the next call, so
     * {@link Key#detach() detach} it before keeping it.
     */
    public Key key(RowData row) {
        Object[] values = probe.values;
        int hash = 0;
        boolean wrapped = false;
        for (int i = 0; i < values.length; i++) {
            int position = stringPositions[i];
            Object value;
            int valueHash;
            if (position >= 0) {
                StringData string = row.isNullAt(position) ? null : row.getString(position);
                value = string;
                valueHash = string == null ? 0 : stringHash(string);
            } else {
                if (!wrapped) {
                    view.wrap(row);
                    wrapped = true;
                }
                value = transforms[i].apply(accessors[i].get(view));
                valueHash =
                        value == null ? 0 : stringResults[i] ? charsHash(value) : value.hashCode();
            }
            values[i] = value;
            hash = i == 0 ? valueHash : 31 * hash + valueHash;
        }
        probe.hash = hash;
        return probe;
    }

    /**
     * Iceberg's partition of {@code row}, as {@link PartitionKey} computes it; the same instance is
     * refilled by the next call (use {@link #detachedPartition} to keep one).
     */
    public PartitionKey partition(RowData row) {
        partitionKey.partition(view.wrap(row));
        return partitionKey;
    }

    /**
     * Iceberg's partition of {@code row} as a standalone copy that shares nothing with the row or
     * with later calls (binary values are copied too), to keep as the partition of a file.
     */
    public PartitionKey detachedPartition(RowData row) {
        PartitionKey copy = partition(row).copy();
        for (int pos = 0; pos < copy.size(); pos++) {
            Object value = copy.get(pos, Object.class);
            if (value instanceof ByteBuffer buffer) {
                copy.set(pos, ByteBuffers.copy(buffer));
            }
        }
        return copy;
    }

    /**
     * A row's partition in a form that is cheap to compare and hash; see {@link RowDataPartitioner}
     * for what equal keys and equal hashes mean.
     */
    public static final class Key {
        private final Object[] values;
        private int hash;

        private Key(Object[] values) {
            this.values = values;
        }

        /** A copy of this key that shares nothing with the row it came from. */
        public Key detach() {
            Object[] copy = new Object[values.length];
            for (int i = 0; i < copy.length; i++) {
                copy[i] = detached(values[i]);
            }
            Key key = new Key(copy);
            key.hash = hash;
            return key;
        }

        /**
         * A hash of the partition values that is the same in every JVM: equal partitions have equal
         * hashes.
         */
        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof Key key) || key.hash != hash) {
                return false;
            }
            for (int i = 0; i < values.length; i++) {
                if (!Objects.equals(values[i], key.values[i])) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder("Key[");
            for (int i = 0; i < values.length; i++) {
                text.append(i == 0 ? "" : ", ").append(values[i]);
            }
            return text.append(']').toString();
        }

        private static Object detached(Object value) {
            if (value instanceof BinaryStringData string) {
                return string.copy();
            }
            if (value instanceof StringData string) {
                return StringData.fromString(string.toString());
            }
            if (value instanceof ByteBuffer buffer) {
                return ByteBuffers.copy(buffer);
            }
            return value;
        }
    }

    /** A string partition value's {@link String#hashCode()}, whatever its CharSequence class. */
    private static int charsHash(Object value) {
        return value instanceof String string ? string.hashCode() : value.toString().hashCode();
    }

    /**
     * The {@link String#hashCode()} of the string, computed from the UTF-8 bytes of an ASCII {@link
     * BinaryStringData} without decoding it.
     */
    private static int stringHash(StringData string) {
        if (string instanceof BinaryStringData binary) {
            String decoded = binary.getJavaObject();
            if (decoded != null) {
                return decoded.hashCode();
            }
            MemorySegment[] segments = binary.getSegments();
            if (segments.length == 1) {
                MemorySegment segment = segments[0];
                int offset = binary.getOffset();
                int end = offset + binary.getSizeInBytes();
                int hash = 0;
                for (int i = offset; i < end; i++) {
                    byte b = segment.get(i);
                    if (b < 0) {
                        // not ASCII: hash the decoded UTF-16 string, as String does
                        return string.toString().hashCode();
                    }
                    hash = 31 * hash + b;
                }
                return hash;
            }
        }
        return string.toString().hashCode();
    }

    private static int topLevelPosition(List<Types.NestedField> columns, int fieldId) {
        for (int pos = 0; pos < columns.size(); pos++) {
            if (columns.get(pos).fieldId() == fieldId) {
                return pos;
            }
        }
        return -1;
    }

    private static boolean isCharacterString(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.VARCHAR || root == LogicalTypeRoot.CHAR;
    }

    @SuppressWarnings("unchecked")
    private static SerializableFunction<Object, Object> bind(
            PartitionField field, Accessor<StructLike> accessor) {
        return (SerializableFunction<Object, Object>)
                ((org.apache.iceberg.transforms.Transform<Object, Object>) field.transform())
                        .bind(accessor.type());
    }

    @SuppressWarnings("unchecked")
    private static Accessor<StructLike>[] newAccessors(int size) {
        return (Accessor<StructLike>[]) new Accessor<?>[size];
    }

    @SuppressWarnings("unchecked")
    private static SerializableFunction<Object, Object>[] newFunctions(int size) {
        return (SerializableFunction<Object, Object>[]) new SerializableFunction<?, ?>[size];
    }
}
