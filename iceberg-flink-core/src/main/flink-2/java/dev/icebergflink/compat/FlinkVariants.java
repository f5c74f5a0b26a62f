package dev.icebergflink.compat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.VariantType;
import org.apache.flink.types.variant.BinaryVariant;
import org.apache.iceberg.variants.Variant;
import org.apache.iceberg.variants.VariantMetadata;
import org.apache.iceberg.variants.VariantValue;
import org.apache.iceberg.variants.Variants;

/**
 * Flink's {@code VARIANT} type and values, for the type mapping and the file readers and writers.
 *
 * <p>It exists because {@code VARIANT} ({@link VariantType}, {@link BinaryVariant}) is Flink 2.1 or
 * later only; the Flink 1.20 build has a class of the same name and signatures that reports the
 * type as unavailable, so the rest of core compiles unchanged on both lines. Values cross between
 * Flink and Iceberg as their two byte arrays: Flink's {@code BinaryVariant} and Iceberg's {@link
 * Variant} use the same binary encoding (the Parquet variant encoding: a metadata dictionary and a
 * value), so no value is decoded on the way.
 */
@Internal
public final class FlinkVariants {

    private FlinkVariants() {}

    /** Whether the Flink this build compiles against has {@code VARIANT} (2.1 or later). */
    public static boolean available() {
        return true;
    }

    /**
     * Flink's {@code VARIANT} type.
     *
     * @param column the column path, named by the error on a Flink without {@code VARIANT}
     */
    public static LogicalType variantType(boolean nullable, String column) {
        return new VariantType(nullable);
    }

    /** Whether {@code type} is Flink's {@code VARIANT}. */
    public static boolean isVariant(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.VARIANT;
    }

    /** Flink's internal value ({@code BinaryVariant}) of an Iceberg variant. */
    public static Object toFlink(Variant variant) {
        VariantMetadata metadata = variant.metadata();
        // a shredded value with neither a value nor a typed value reads as variant null
        VariantValue value = variant.value() != null ? variant.value() : Variants.ofNull();
        byte[] metadataBytes = new byte[metadata.sizeInBytes()];
        metadata.writeTo(ByteBuffer.wrap(metadataBytes).order(ByteOrder.LITTLE_ENDIAN), 0);
        byte[] valueBytes = new byte[value.sizeInBytes()];
        value.writeTo(ByteBuffer.wrap(valueBytes).order(ByteOrder.LITTLE_ENDIAN), 0);
        return new BinaryVariant(valueBytes, metadataBytes);
    }

    /**
     * The Iceberg variant of Flink's internal value of a {@code VARIANT} field; the bytes are
     * wrapped, not copied.
     *
     * @param column the column path, named when the value is not a Flink binary variant
     */
    public static Variant toIceberg(Object flinkVariant, String column) {
        if (!(flinkVariant instanceof BinaryVariant)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Column '%s': expected a Flink VARIANT value (BinaryVariant), got %s",
                            column,
                            flinkVariant == null ? "null" : flinkVariant.getClass().getName()));
        }
        BinaryVariant binary = (BinaryVariant) flinkVariant;
        VariantMetadata metadata =
                VariantMetadata.from(
                        ByteBuffer.wrap(binary.getMetadata()).order(ByteOrder.LITTLE_ENDIAN));
        VariantValue value =
                VariantValue.from(
                        metadata,
                        ByteBuffer.wrap(binary.getValue()).order(ByteOrder.LITTLE_ENDIAN));
        return Variant.of(metadata, value);
    }
}
