package dev.icebergflink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.iceberg.variants.Variant;

/**
 * Flink's {@code VARIANT} type and values, for the type mapping and the file readers and writers.
 *
 * <p>It exists because {@code VARIANT} is Flink 2.1 or later only. This is the Flink 1.20 build: it
 * has the signatures of the Flink 2 class, so the rest of core compiles unchanged, and reports the
 * type as unavailable. An Iceberg {@code variant} column therefore fails with a message naming the
 * column as soon as its Flink type is needed (reading or writing the table).
 */
@Internal
public final class FlinkVariants {

    private FlinkVariants() {}

    /** Whether the Flink this build compiles against has {@code VARIANT}: not Flink 1.20. */
    public static boolean available() {
        return false;
    }

    /**
     * Fails: Flink 1.20 has no {@code VARIANT} type.
     *
     * @param column the column path the error names
     */
    public static LogicalType variantType(boolean nullable, String column) {
        throw unavailable(column);
    }

    /** Whether {@code type} is Flink's {@code VARIANT}: never on Flink 1.20. */
    public static boolean isVariant(LogicalType type) {
        return false;
    }

    /** Fails: Flink 1.20 has no variant values. */
    public static Object toFlink(Variant variant) {
        throw unavailable("<variant>");
    }

    /** Fails: Flink 1.20 has no variant values. */
    public static Variant toIceberg(Object flinkVariant, String column) {
        throw unavailable(column);
    }

    private static UnsupportedOperationException unavailable(String column) {
        return new UnsupportedOperationException(
                String.format(
                        "Column '%s' has Iceberg type variant, which needs Flink's VARIANT type:"
                                + " Flink 2.1 or later. This connector build is for Flink 1.20;"
                                + " use the connector for Flink 2.1 or later, or leave the column"
                                + " out of the projection.",
                        column));
    }
}
