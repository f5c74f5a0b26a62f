package dev.icebergflink.data.row;

import dev.icebergflink.compat.FlinkVariants;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.iceberg.types.Type;

/**
 * Which Flink types the Parquet and ORC RowData writers accept for each Iceberg primitive type, and
 * the one error message for a Flink type that does not fit its column.
 *
 * <p>It exists so that both writers check a Flink row type against the Iceberg schema by the same
 * table (the shared conventions: TINYINT and SMALLINT into int, CHAR and VARCHAR into string,
 * BINARY and VARBINARY into uuid, fixed and binary, both timestamp kinds into both timestamp
 * types). The checks run once, when a writer is built, never per row.
 */
@Internal
public final class FlinkTypeRoots {

    private static final Map<Type.TypeID, Set<LogicalTypeRoot>> EXACT =
            new EnumMap<>(Type.TypeID.class);

    static {
        EXACT.put(Type.TypeID.BOOLEAN, roots(LogicalTypeRoot.BOOLEAN));
        EXACT.put(
                Type.TypeID.INTEGER,
                roots(LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER));
        EXACT.put(Type.TypeID.LONG, roots(LogicalTypeRoot.BIGINT));
        EXACT.put(Type.TypeID.FLOAT, roots(LogicalTypeRoot.FLOAT));
        EXACT.put(Type.TypeID.DOUBLE, roots(LogicalTypeRoot.DOUBLE));
        EXACT.put(Type.TypeID.DATE, roots(LogicalTypeRoot.DATE));
        EXACT.put(Type.TypeID.TIME, roots(LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE));
        Set<LogicalTypeRoot> timestamps =
                roots(
                        LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
                        LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
        EXACT.put(Type.TypeID.TIMESTAMP, timestamps);
        EXACT.put(Type.TypeID.TIMESTAMP_NANO, timestamps);
        EXACT.put(Type.TypeID.STRING, roots(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR));
        Set<LogicalTypeRoot> binaries = roots(LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY);
        EXACT.put(Type.TypeID.UUID, binaries);
        EXACT.put(Type.TypeID.FIXED, binaries);
        EXACT.put(Type.TypeID.BINARY, binaries);
        EXACT.put(Type.TypeID.DECIMAL, roots(LogicalTypeRoot.DECIMAL));
    }

    private FlinkTypeRoots() {}

    /** The Flink type roots whose values fit {@code type}; empty for types without support. */
    public static Set<LogicalTypeRoot> of(Type type) {
        return EXACT.getOrDefault(type.typeId(), Collections.emptySet());
    }

    /**
     * Fails unless {@code flinkType} is one of the types {@link #of} allows for the primitive
     * {@code type} of the column at {@code path}.
     */
    public static void requireFits(Type type, LogicalType flinkType, String path) {
        if (type.typeId() == Type.TypeID.UNKNOWN) {
            return; // nothing of an unknown column is stored: any Flink type, always NULL
        }
        if (type.typeId() == Type.TypeID.VARIANT) {
            if (!FlinkVariants.isVariant(flinkType)) {
                throw mismatch(type, flinkType, path, "VARIANT (Flink 2.1 or later)");
            }
            return;
        }
        Set<LogicalTypeRoot> allowed = of(type);
        if (!allowed.contains(flinkType.getTypeRoot())) {
            throw mismatch(
                    type,
                    flinkType,
                    path,
                    allowed.isEmpty()
                            ? "none, the Flink connector does not support " + type
                            : allowed.toString());
        }
    }

    /** The error for a Flink type that cannot hold column {@code path}, naming what is allowed. */
    public static IllegalArgumentException mismatch(
            Type type, LogicalType flinkType, String path, String allowed) {
        return new IllegalArgumentException(
                String.format(
                        "Column '%s': Flink type %s cannot hold Iceberg type %s; allowed Flink"
                                + " types: %s",
                        path, flinkType, type, allowed));
    }

    private static Set<LogicalTypeRoot> roots(LogicalTypeRoot first, LogicalTypeRoot... rest) {
        return Collections.unmodifiableSet(EnumSet.of(first, rest));
    }
}
