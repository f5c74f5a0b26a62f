package dev.icebergflink.types;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.iceberg.types.Type;

/**
 * Thrown when a column's type has no counterpart on the other side of the Flink/Iceberg type
 * mapping. The message names the column path and the type, and says what is supported, so that a
 * user can fix the schema.
 */
@PublicEvolving
public class UnsupportedTypeException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private static final String FLINK_SUPPORTED =
            "BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, CHAR, VARCHAR/STRING, BINARY,"
                    + " VARBINARY/BYTES, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, ARRAY, MAP,"
                    + " MULTISET, ROW and (Flink 2.1 or later) VARIANT";

    private static final String ICEBERG_SUPPORTED =
            "boolean, int, long, float, double, date, time, timestamp, timestamptz, timestamp_ns,"
                    + " timestamptz_ns, string, uuid, fixed, binary, decimal, struct, list, map, unknown"
                    + " and (Flink 2.1 or later) variant";

    private final String column;

    private UnsupportedTypeException(String column, String message) {
        super(message);
        this.column = column;
    }

    /** The dotted path of the column whose type is unsupported. */
    public String column() {
        return column;
    }

    static UnsupportedTypeException forFlinkType(String column, LogicalType type) {
        return new UnsupportedTypeException(
                column,
                String.format(
                        "Column '%s' has Flink type %s, which Iceberg cannot store. Supported Flink"
                                + " types are %s.",
                        column, type.asSummaryString(), FLINK_SUPPORTED));
    }

    static UnsupportedTypeException variantBeforeFlink21(String column) {
        return new UnsupportedTypeException(
                column,
                String.format(
                        "Column '%s' has Iceberg type variant, which needs Flink's VARIANT type:"
                                + " Flink 2.1 or later. This connector build is for Flink 1.20;"
                                + " read and write the table with the connector for Flink 2.1 or"
                                + " later (the DataStream source can also project the column"
                                + " away).",
                        column));
    }

    static UnsupportedTypeException forIcebergType(String column, Type type) {
        return new UnsupportedTypeException(
                column,
                String.format(
                        "Column '%s' has Iceberg type %s, which this connector cannot map to a Flink"
                                + " type yet. Supported Iceberg types are %s.",
                        column, type, ICEBERG_SUPPORTED));
    }
}
