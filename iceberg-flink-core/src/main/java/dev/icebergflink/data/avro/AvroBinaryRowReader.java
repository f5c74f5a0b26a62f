package dev.icebergflink.data.avro;

import dev.icebergflink.data.row.BinaryRowBuilder;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.io.Decoder;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.avro.SupportsRowPosition;
import org.apache.iceberg.avro.ValueReader;
import org.apache.iceberg.avro.ValueReaders;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.util.Pair;

/**
 * Reads the top-level record of an Avro data file as a {@link BinaryRowData}, following a read plan
 * from {@link ValueReaders#buildReadPlan}: the file's fields in file order, each with the expected
 * position it fills (or none, to skip it), then readers of constants and defaults for the expected
 * fields the file lacks.
 *
 * <p>It exists so that the rows a source emits are binary rows, which Flink copies with one array
 * copy between operators instead of a deep copy. File fields that are plain primitive columns
 * (marked with {@link #fileField} by the read builder, and still themselves in the plan) are
 * decoded straight into the row with a {@link DirectFieldDecoder}; every other plan entry (nested
 * values, constants, defaults, row positions, row lineage, other unions) keeps its {@link
 * ValueReader}, and its value goes through {@link BinaryRowBuilder#setValue}. Each row is new and
 * independent of the rows before it; the reuse argument of {@link #read} is ignored.
 */
final class AvroBinaryRowReader implements ValueReader<RowData>, SupportsRowPosition {

    private final BinaryRowBuilder builder;
    private final int[] positions;
    private final ValueReader<?>[] readers;
    private final DirectFieldDecoder[] decoders;

    AvroBinaryRowReader(List<Pair<Integer, ValueReader<?>>> readPlan, RowType rowType) {
        this.builder = new BinaryRowBuilder(rowType);
        int steps = readPlan.size();
        this.positions = new int[steps];
        this.readers = new ValueReader<?>[steps];
        this.decoders = new DirectFieldDecoder[steps];
        for (int i = 0; i < steps; i++) {
            Integer pos = readPlan.get(i).first();
            ValueReader<?> reader = readPlan.get(i).second();
            positions[i] = pos == null ? -1 : pos;
            if (reader instanceof FileField field) {
                readers[i] = field.reader;
                decoders[i] = pos == null ? null : field.decoder;
            } else {
                readers[i] = reader;
            }
        }
    }

    /**
     * Marks the reader of a top-level file field with the file's Avro schema for it and the
     * expected Iceberg type, so that the row reader can decode it directly when the read plan keeps
     * it as it is. The marked reader reads and skips like {@code reader}. The fields of one row
     * share {@code scratch}.
     */
    static ValueReader<?> fileField(
            ValueReader<?> reader, Schema fileSchema, Type expected, ScratchBytes scratch) {
        DirectFieldDecoder decoder = DirectFieldDecoder.forField(fileSchema, expected, scratch);
        return decoder == null ? reader : new FileField(reader, decoder);
    }

    @Override
    public RowData read(Decoder decoder, Object reuse) throws IOException {
        builder.begin();
        for (int i = 0; i < positions.length; i++) {
            int pos = positions[i];
            if (pos < 0) {
                readers[i].skip(decoder);
            } else if (decoders[i] != null) {
                decoders[i].decode(decoder, builder, pos);
            } else {
                builder.setValue(pos, readers[i].read(decoder, null));
            }
        }
        return builder.finish();
    }

    @Override
    public void skip(Decoder decoder) throws IOException {
        for (ValueReader<?> reader : readers) {
            reader.skip(decoder);
        }
    }

    @Override
    public void setRowPositionSupplier(Supplier<Long> positionSupplier) {
        for (ValueReader<?> reader : readers) {
            if (reader instanceof SupportsRowPosition) {
                ((SupportsRowPosition) reader).setRowPositionSupplier(positionSupplier);
            }
        }
    }

    /** A top-level file field's reader, with the decoder that can replace it. */
    private static final class FileField implements ValueReader<Object>, SupportsRowPosition {
        private final ValueReader<?> reader;
        private final DirectFieldDecoder decoder;

        private FileField(ValueReader<?> reader, DirectFieldDecoder decoder) {
            this.reader = reader;
            this.decoder = decoder;
        }

        @Override
        public Object read(Decoder in, Object reuse) throws IOException {
            return reader.read(in, reuse);
        }

        @Override
        public void skip(Decoder in) throws IOException {
            reader.skip(in);
        }

        @Override
        public void setRowPositionSupplier(Supplier<Long> positionSupplier) {
            if (reader instanceof SupportsRowPosition) {
                ((SupportsRowPosition) reader).setRowPositionSupplier(positionSupplier);
            }
        }
    }
}
