package dev.icebergflink.source.reader;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A split's event-time lower bound from the column statistics of its data files: the minimum lower
 * bound of the watermark column over the split's files, in epoch milliseconds.
 *
 * <p>The column may be an Iceberg {@code long} (in the configured time unit), {@code timestamp}
 * (micros) or {@code timestamp_ns} (nanos). Splits must be planned with column statistics for the
 * column; a file without a lower bound for it is an error, because guessing would let watermarks
 * overtake data.
 */
@Internal
public final class ColumnStatsWatermarkExtractor implements SplitWatermarkExtractor {

    private static final long serialVersionUID = 1L;

    private static final Set<Type.TypeID> SUPPORTED =
            EnumSet.of(Type.TypeID.LONG, Type.TypeID.TIMESTAMP, Type.TypeID.TIMESTAMP_NANO);

    private final String column;
    private final int fieldId;
    private final Type type;
    private final TimeUnit unit;

    /**
     * @param schema the table schema
     * @param column the watermark column name
     * @param longUnit the time unit of a {@code long} column (ignored for timestamps)
     * @param caseSensitive whether the column name is matched case-sensitively
     * @throws IllegalArgumentException when the column is missing or of an unsupported type
     */
    public ColumnStatsWatermarkExtractor(
            Schema schema, String column, TimeUnit longUnit, boolean caseSensitive) {
        Objects.requireNonNull(schema, "schema");
        this.column = Objects.requireNonNull(column, "column");
        Types.NestedField field =
                caseSensitive ? schema.findField(column) : schema.caseInsensitiveFindField(column);
        if (field == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Watermark column '%s' is not in the table schema %s",
                            column, schema.asStruct()));
        }
        if (!SUPPORTED.contains(field.type().typeId())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Watermark column '%s' has type %s; allowed types: long, timestamp,"
                                    + " timestamp_ns",
                            column, field.type()));
        }
        this.fieldId = field.fieldId();
        this.type = field.type();
        switch (type.typeId()) {
            case TIMESTAMP:
                this.unit = TimeUnit.MICROSECONDS;
                break;
            case TIMESTAMP_NANO:
                this.unit = TimeUnit.NANOSECONDS;
                break;
            default:
                this.unit = Objects.requireNonNull(longUnit, "time unit of the watermark column");
        }
    }

    @Override
    public long extractWatermark(IcebergSourceSplit split) {
        long min = Long.MAX_VALUE;
        for (FileScanTask task : split.task().files()) {
            Map<Integer, ByteBuffer> lowerBounds = task.file().lowerBounds();
            ByteBuffer bound = lowerBounds == null ? null : lowerBounds.get(fieldId);
            if (bound == null) {
                throw new IllegalArgumentException(
                        String.format(
                                "Missing lower bound statistics of watermark column '%s' in data"
                                        + " file %s (split %s); plan splits with column statistics"
                                        + " and keep metrics for that column",
                                column, task.file().location(), split.splitId()));
            }
            Long value = Conversions.fromByteBuffer(type, bound);
            min = Math.min(min, value);
        }
        return unit.toMillis(min);
    }
}
