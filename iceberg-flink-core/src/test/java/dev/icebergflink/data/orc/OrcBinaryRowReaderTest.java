package dev.icebergflink.data.orc;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatTestFiles;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.types.Types;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.storage.common.type.HiveDecimal;
import org.apache.orc.storage.ql.exec.vector.BytesColumnVector;
import org.apache.orc.storage.ql.exec.vector.DecimalColumnVector;
import org.apache.orc.storage.ql.exec.vector.LongColumnVector;
import org.apache.orc.storage.ql.exec.vector.VectorizedRowBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ORC reader's top-level rows are {@link BinaryRowData} decoded column by column: every
 * primitive type with and without nulls, repeating vectors, nested values and constants inside the
 * binary rows, rows that stay intact while later rows (and batches) are read, row lineage, and
 * files without field ids read through a name mapping.
 */
class OrcBinaryRowReaderTest {

    private static final Schema EVERY_TYPE =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "flag", Types.BooleanType.get()),
                    optional(3, "count", Types.IntegerType.get()),
                    optional(4, "big", Types.LongType.get()),
                    optional(5, "ratio", Types.FloatType.get()),
                    optional(6, "score", Types.DoubleType.get()),
                    optional(7, "day", Types.DateType.get()),
                    optional(8, "at_time", Types.TimeType.get()),
                    optional(9, "local_ts", Types.TimestampType.withoutZone()),
                    optional(10, "instant_ts", Types.TimestampType.withZone()),
                    optional(11, "local_ts_ns", Types.TimestampNanoType.withoutZone()),
                    optional(12, "name", Types.StringType.get()),
                    optional(13, "key", Types.UUIDType.get()),
                    optional(14, "code", Types.FixedType.ofLength(3)),
                    optional(15, "payload", Types.BinaryType.get()),
                    optional(16, "price", Types.DecimalType.of(9, 2)),
                    optional(17, "amount", Types.DecimalType.of(18, 4)),
                    optional(18, "huge", Types.DecimalType.of(38, 10)),
                    optional(
                            19,
                            "point",
                            Types.StructType.of(
                                    optional(20, "x", Types.IntegerType.get()),
                                    optional(21, "label", Types.StringType.get()))),
                    optional(22, "tags", Types.ListType.ofOptional(23, Types.StringType.get())),
                    optional(
                            24,
                            "counts",
                            Types.MapType.ofOptional(
                                    25, 26, Types.StringType.get(), Types.LongType.get())));

    /** More rows than one ORC batch (1024) and than one chunk of the row builder holds. */
    private static final int ROWS = 2_500;

    private static final FormatTestFiles ORC = FormatTestFiles.of(FileFormat.ORC);

    @TempDir Path temp;

    @Test
    void readsEveryPrimitiveTypeAndNullIntoBinaryRowsThatStayIntact() {
        List<RowData> written = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            written.add(i % 5 == 3 ? nullRow(i) : row(i));
        }
        File file = temp.resolve("every-type.orc").toFile();
        ORC.writeRows(file, EVERY_TYPE, null, written);

        // every row is checked only after all rows (and batches) have been read
        List<RowData> read = ORC.readRows(file, EVERY_TYPE);

        assertThat(read).hasSize(ROWS).allMatch(row -> row instanceof BinaryRowData);
        RowDataAssert.assertRowsEqual(EVERY_TYPE, written, read);
        RowData first = read.get(1);
        assertThat(first.getLong(0)).isEqualTo(1L);
        assertThat(first.getBoolean(1)).isTrue();
        assertThat(first.getInt(2)).isEqualTo(-3);
        assertThat(first.getLong(3)).isEqualTo(1_000_000_007L);
        assertThat(first.getFloat(4)).isEqualTo(0.25f);
        assertThat(first.getDouble(5)).isEqualTo(-1.125);
        assertThat(first.getInt(6)).isEqualTo(19_001);
        assertThat(first.getInt(7)).isEqualTo(3_600_001);
        assertThat(first.getTimestamp(8, 6).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 6, 123_457_000));
        assertThat(first.getTimestamp(9, 6).toInstant())
                .isEqualTo(Instant.ofEpochSecond(1_700_000_001L, 999_000));
        assertThat(first.getTimestamp(10, 9).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 51, 1));
        assertThat(first.getString(11).toString()).isEqualTo("name-1-é");
        assertThat(first.getBinary(12)).hasSize(16).startsWith(1, 2, 3);
        assertThat(first.getBinary(13)).containsExactly('a', 'b', 1);
        assertThat(first.getBinary(14)).containsExactly(0, 1);
        assertThat(first.getDecimal(15, 9, 2).toBigDecimal()).isEqualTo(new BigDecimal("-0.99"));
        assertThat(first.getDecimal(16, 18, 4).toBigDecimal())
                .isEqualTo(new BigDecimal("12345678901234.0001"));
        assertThat(first.getDecimal(17, 38, 10).toBigDecimal())
                .isEqualTo(new BigDecimal("1234567890123456789012345678.0000000001"));
        assertThat(first.getRow(18, 2).getString(1).toString()).isEqualTo("label-1");
        assertThat(first.getArray(19).getString(1).toString()).isEqualTo("t1");
        assertThat(first.getMap(20).valueArray().getLong(0)).isEqualTo(1L);
        RowData nulls = read.get(3);
        for (int pos = 1; pos < EVERY_TYPE.columns().size(); pos++) {
            assertThat(nulls.isNullAt(pos)).as("field %s of a null row", pos).isTrue();
        }
    }

    @Test
    void readsRepeatingColumnsConstantsAndRowPositions() {
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(2, "same", Types.StringType.get()),
                        optional(3, "never", Types.StringType.get()),
                        optional(4, "region", Types.StringType.get()));
        List<RowData> written = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            written.add(
                    GenericRowData.of(
                            (long) i,
                            StringData.fromString("always the same"),
                            null,
                            StringData.fromString("in-file")));
        }
        File file = temp.resolve("repeating.orc").toFile();
        ORC.writeRows(file, schema, null, written);
        Schema projection =
                new Schema(
                        schema.findField(4),
                        MetadataColumns.ROW_POSITION,
                        schema.findField(3),
                        schema.findField(2),
                        schema.findField(1),
                        optional(5, "bucket", Types.IntegerType.get()));
        Map<Integer, Object> constants = new HashMap<>();
        constants.put(4, "eu-west"); // an identity partition value wins over the file's column
        constants.put(5, 7);

        List<RowData> read = ORC.readRows(file, projection, null, constants);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = read.get(i);
            assertThat(row).isInstanceOf(BinaryRowData.class);
            assertThat(row.getString(0).toString()).isEqualTo("eu-west");
            assertThat(row.getLong(1)).as("_pos of row %s", i).isEqualTo(i);
            assertThat(row.isNullAt(2)).isTrue();
            assertThat(row.getString(3).toString()).isEqualTo("always the same");
            assertThat(row.getLong(4)).isEqualTo(i);
            assertThat(row.getInt(5)).isEqualTo(7);
        }
    }

    @Test
    void readsRowLineageFromTheFileOrFromTheFirstRowIdAndSequenceNumber() {
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        MetadataColumns.ROW_ID,
                        MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER);
        List<RowData> written = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            boolean kept = i % 3 == 0; // rows rewritten with their lineage keep it in the file
            written.add(GenericRowData.of((long) i, kept ? 9_000L + i : null, kept ? 2L : null));
        }
        File file = temp.resolve("lineage.orc").toFile();
        ORC.writeRows(file, schema, null, written);
        Map<Integer, Object> constants = new HashMap<>();
        constants.put(MetadataColumns.ROW_ID.fieldId(), 100L);
        constants.put(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId(), 5L);

        List<RowData> read = ORC.readRows(file, schema, null, constants);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = read.get(i);
            boolean kept = i % 3 == 0;
            assertThat(row.getLong(0)).isEqualTo(i);
            assertThat(row.getLong(1))
                    .as("_row_id of row %s", i)
                    .isEqualTo(kept ? 9_000L + i : 100L + i);
            assertThat(row.getLong(2)).as("sequence number of row %s", i).isEqualTo(kept ? 2L : 5L);
        }
    }

    @Test
    void readsAFileWithoutFieldIdsThroughANameMapping() throws IOException {
        File file = temp.resolve("no-ids.orc").toFile();
        TypeDescription orcSchema =
                TypeDescription.fromString("struct<price:decimal(9,2),name:string,id:bigint>");
        try (Writer writer =
                OrcFile.createWriter(
                        new org.apache.hadoop.fs.Path(file.toURI()),
                        OrcFile.writerOptions(new Configuration()).setSchema(orcSchema))) {
            VectorizedRowBatch batch = orcSchema.createRowBatch();
            for (int i = 0; i < 3; i++) {
                int row = batch.size++;
                ((DecimalColumnVector) batch.cols[0])
                        .set(row, HiveDecimal.create(BigDecimal.valueOf(i * 125L, 2)));
                byte[] name = ("plain-orc-" + i).getBytes(StandardCharsets.UTF_8);
                ((BytesColumnVector) batch.cols[1]).setVal(row, name);
                ((LongColumnVector) batch.cols[2]).vector[row] = 10L + i;
            }
            writer.addRowBatch(batch);
        }
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(2, "name", Types.StringType.get()),
                        optional(3, "price", Types.DecimalType.of(9, 2)));

        List<RowData> read =
                FormatTestFiles.collect(
                        ORC.rowReader(file)
                                .project(schema)
                                .withNameMapping(MappingUtil.create(schema))
                                .build());

        assertThat(read).hasSize(3).allMatch(row -> row instanceof BinaryRowData);
        for (int i = 0; i < 3; i++) {
            assertThat(read.get(i).getLong(0)).isEqualTo(10L + i);
            assertThat(read.get(i).getString(1).toString()).isEqualTo("plain-orc-" + i);
            assertThat(read.get(i).getDecimal(2, 9, 2).toBigDecimal())
                    .isEqualTo(BigDecimal.valueOf(i * 125L, 2));
        }
    }

    private static RowData row(int i) {
        byte[] uuid = new byte[16];
        for (int b = 0; b < uuid.length; b++) {
            uuid[b] = (byte) (b + i);
        }
        Map<StringData, Long> counts = new HashMap<>();
        counts.put(StringData.fromString("k" + i), (long) i);
        return GenericRowData.of(
                (long) i,
                i % 2 == 1,
                i * -3,
                1_000_000_000L + i * 7L,
                i * 0.25f,
                i * -1.125,
                19_000 + i,
                3_600_000 + i,
                TimestampData.fromLocalDateTime(
                        LocalDateTime.of(2024, 1, 2, 3, 4, 5 + i % 50, 123_457_000)),
                TimestampData.fromInstant(Instant.ofEpochSecond(1_700_000_000L + i, 999_000)),
                TimestampData.fromLocalDateTime(
                        LocalDateTime.of(1969, 12, 31, 23, 59, 50 + i % 3, i % 1000)),
                StringData.fromString("name-" + i + (i % 3 == 0 ? "" : "-é")),
                uuid,
                new byte[] {'a', 'b', (byte) i},
                new byte[] {0, (byte) i},
                DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 101L - 200, 2), 9, 2),
                DecimalData.fromBigDecimal(
                        new BigDecimal("12345678901234").add(BigDecimal.valueOf(i, 4)), 18, 4),
                DecimalData.fromBigDecimal(
                        new BigDecimal("1234567890123456789012345678")
                                .add(BigDecimal.valueOf(i, 10)),
                        38,
                        10),
                GenericRowData.of(i, StringData.fromString("label-" + i)),
                new GenericArrayData(
                        new Object[] {StringData.fromString("t0"), StringData.fromString("t" + i)}),
                new GenericMapData(counts));
    }

    private static RowData nullRow(int i) {
        GenericRowData row = new GenericRowData(EVERY_TYPE.columns().size());
        row.setField(0, (long) i);
        return row;
    }
}
