package dev.icebergflink.data.avro;

import dev.icebergflink.compat.FlinkVariants;
import java.io.IOException;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.Encoder;
import org.apache.iceberg.avro.ValueReader;
import org.apache.iceberg.avro.ValueReaders;
import org.apache.iceberg.avro.ValueWriter;
import org.apache.iceberg.avro.ValueWriters;
import org.apache.iceberg.variants.Variant;

/**
 * Variant columns of Avro files as Flink {@code VARIANT} values, over Iceberg's own Avro variant
 * reader and writer (a record of {@code metadata} and {@code value} bytes); only the value's bytes
 * are handed across (see {@link FlinkVariants}).
 */
final class AvroVariantValues {

    private AvroVariantValues() {}

    /** Reads Flink variant values. */
    static ValueReader<Object> reader() {
        ValueReader<Variant> variants = ValueReaders.variants();
        return new ValueReader<>() {
            @Override
            public Object read(Decoder decoder, Object reuse) throws IOException {
                return FlinkVariants.toFlink(variants.read(decoder, null));
            }

            @Override
            public void skip(Decoder decoder) throws IOException {
                variants.skip(decoder);
            }
        };
    }

    /** Writes Flink variant values of column {@code column}. */
    static ValueWriter<Object> writer(String column) {
        ValueWriter<Variant> variants = ValueWriters.variants();
        return (value, encoder) -> write(variants, value, encoder, column);
    }

    private static void write(
            ValueWriter<Variant> variants, Object value, Encoder encoder, String column)
            throws IOException {
        variants.write(FlinkVariants.toIceberg(value, column), encoder);
    }
}
