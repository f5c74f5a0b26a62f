package dev.icebergflink.data;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.compat.FlinkVariants;
import dev.icebergflink.data.row.RowDataStructLike;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.variant.BinaryVariantBuilder;
import org.apache.flink.types.variant.Variant;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Iceberg {@code variant} columns through our RowData readers and writers (Flink 2.1 or later):
 * Flink to file to Flink, files of iceberg-data's generic writer (also a shredded Parquet file)
 * read by ours, and ours read by the generic reader. Values are compared as JSON, since the two
 * libraries may lay out the same object differently.
 */
class VariantFilesTest {

    private static final Schema SCHEMA =
            new Schema(
                    required(1, "id", Types.IntegerType.get()),
                    optional(2, "v", Types.VariantType.get()),
                    optional(3, "vs", Types.ListType.ofOptional(4, Types.VariantType.get())),
                    optional(
                            5,
                            "s",
                            Types.StructType.of(optional(6, "inner", Types.VariantType.get()))));

    private static final BinaryVariantBuilder B = new BinaryVariantBuilder();

    @TempDir Path dir;

    /** Per row: the top-level variant, or null for a NULL column. */
    private static List<Variant> values() {
        List<Variant> values = new ArrayList<>();
        values.add(B.of(42));
        values.add(B.of("text"));
        values.add(B.of(true));
        values.add(B.of(2.5d));
        values.add(B.of(new BigDecimal("12.345")));
        values.add(B.of(LocalDate.of(2026, 12, 3)));
        values.add(B.ofNull()); // a variant holding JSON null
        values.add(null); // a NULL column
        values.add(
                B.object()
                        .add("name", B.of("flink"))
                        .add("n", B.of(7L))
                        .add(
                                "nested",
                                B.object()
                                        .add("list", B.array().add(B.of(1)).add(B.of("x")).build())
                                        .build())
                        .build());
        values.add(B.array().add(B.of(1)).add(B.ofNull()).add(B.object().build()).build());
        return values;
    }

    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>();
        List<Variant> values = values();
        for (int i = 0; i < values.size(); i++) {
            Variant v = values.get(i);
            rows.add(
                    GenericRowData.of(
                            i,
                            v,
                            v == null ? null : new GenericArrayData(new Object[] {v, null, v}),
                            GenericRowData.of(v)));
        }
        return rows;
    }

    @Test
    void variantMapsBothWays() {
        RowType rowType = FlinkSchemaUtil.convert(SCHEMA);
        assertThat(rowType.getTypeAt(1).getTypeRoot()).isEqualTo(LogicalTypeRoot.VARIANT);
        assertThat(rowType.getTypeAt(1).isNullable()).isTrue();
        assertThat(FlinkSchemaUtil.convert(FlinkSchemaUtil.toSchema(rowType))).isEqualTo(rowType);
        assertThat(FlinkSchemaUtil.toSchema(rowType).findType("s.inner"))
                .isEqualTo(Types.VariantType.get());
    }

    @Test
    void rowsViewedAsIcebergStructsHoldIcebergVariants() {
        // the view partitioning, residual filters and delete keys use on the write and read paths
        RowDataStructLike view =
                new RowDataStructLike(SCHEMA.asStruct(), FlinkSchemaUtil.convert(SCHEMA));
        List<RowData> rows = rows();
        List<Variant> values = values();
        for (int i = 0; i < rows.size(); i++) {
            view.wrap(rows.get(i));
            org.apache.iceberg.variants.Variant v =
                    view.get(1, org.apache.iceberg.variants.Variant.class);
            assertThat(v == null ? null : json(v))
                    .isEqualTo(values.get(i) == null ? null : values.get(i).toJson());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "AVRO"})
    void flinkRowsRoundTripThroughOurWriterAndReader(FileFormat format) {
        FormatTestFiles files = FormatTestFiles.of(format);
        File file = files.newFile(dir);
        files.writeRows(file, SCHEMA, FlinkSchemaUtil.convert(SCHEMA), rows());

        assertSameJson(files.readRows(file, SCHEMA), values());
        // the generic reader sees the same values
        List<Record> records = files.readRecords(file, SCHEMA);
        List<Variant> expected = values();
        assertThat(records).hasSize(expected.size());
        for (int i = 0; i < records.size(); i++) {
            Object v = records.get(i).getField("v");
            assertThat(v == null ? null : json((org.apache.iceberg.variants.Variant) v))
                    .as("row %d read by the generic reader", i)
                    .isEqualTo(expected.get(i) == null ? null : expected.get(i).toJson());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = FileFormat.class,
            names = {"PARQUET", "AVRO"})
    void filesOfTheGenericWriterAreReadByOurs(FileFormat format) {
        FormatTestFiles files = FormatTestFiles.of(format);
        File file = files.newFile(dir);
        files.writeRecords(file, SCHEMA, records());

        assertSameJson(files.readRows(file, SCHEMA), values());
    }

    @Test
    void shreddedParquetOfTheGenericWriterIsReadByOurs() throws IOException {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Variant v =
                    i % 5 == 4
                            ? B.of("not an object") // stays in the value column
                            : B.object()
                                    .add("name", B.of("n" + i))
                                    .add("n", B.of(i))
                                    .add("extra", i % 2 == 0 ? B.of(true) : B.of("odd"))
                                    .build();
            records.add(record(i, v));
        }
        // name and n shredded into typed columns, extra left in the object's value column
        org.apache.parquet.schema.Type typedValue =
                org.apache.parquet.schema.Types.optionalGroup()
                        .addField(shreddedField("name", stringColumn()))
                        .addField(shreddedField("n", intColumn()))
                        .named("typed_value");
        File file = dir.resolve("shredded.parquet").toFile();
        DataWriter<Record> writer =
                Parquet.writeData(Files.localOutput(file))
                        .schema(SCHEMA)
                        .createWriterFunc(GenericParquetWriter::create)
                        .variantShreddingFunc((id, name) -> id == 2 ? typedValue : null)
                        .withSpec(PartitionSpec.unpartitioned())
                        .overwrite()
                        .build();
        try (writer) {
            records.forEach(writer::write);
        }
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(file.toURI()),
                                new org.apache.hadoop.conf.Configuration()))) {
            assertThat(reader.getFileMetaData().getSchema().getType("v").toString())
                    .as("the column is shredded")
                    .contains("typed_value", "name", "n");
        }

        List<RowData> rows = FormatTestFiles.of(FileFormat.PARQUET).readRows(file, SCHEMA);
        assertThat(rows).hasSize(records.size());
        for (int i = 0; i < rows.size(); i++) {
            Variant expected =
                    flink((org.apache.iceberg.variants.Variant) records.get(i).getField("v"));
            assertThat(rows.get(i).getVariant(1).toJson()).isEqualTo(expected.toJson());
        }
        assertThat(rows.get(2).getVariant(1).getField("extra").getBoolean()).isTrue();
        assertThat(rows.get(3).getVariant(1).getField("name").getString()).isEqualTo("n3");
        assertThat(rows.get(4).getVariant(1).getString()).isEqualTo("not an object");
    }

    @Test
    void orcNamesTheColumnAndTheFormat() {
        FormatTestFiles files = FormatTestFiles.of(FileFormat.ORC);
        File file = files.newFile(dir);
        assertThatThrownBy(
                        () ->
                                files.writeRows(
                                        file, SCHEMA, FlinkSchemaUtil.convert(SCHEMA), rows()))
                .hasMessageContaining("'v'")
                .hasMessageContaining("ORC")
                .hasMessageContaining("Parquet or Avro");
    }

    private static List<Record> records() {
        List<Record> records = new ArrayList<>();
        List<Variant> values = values();
        for (int i = 0; i < values.size(); i++) {
            records.add(record(i, values.get(i)));
        }
        return records;
    }

    private static Record record(int id, Variant v) {
        org.apache.iceberg.variants.Variant iceberg =
                v == null ? null : FlinkVariants.toIceberg(v, "v");
        Record inner = GenericRecord.create(SCHEMA.findType("s").asStructType());
        inner.setField("inner", iceberg);
        Record record = GenericRecord.create(SCHEMA);
        record.setField("id", id);
        record.setField("v", iceberg);
        record.setField(
                "vs", iceberg == null ? null : java.util.Arrays.asList(iceberg, null, iceberg));
        record.setField("s", inner);
        return record;
    }

    private static void assertSameJson(List<RowData> rows, List<Variant> expected) {
        assertThat(rows).hasSize(expected.size());
        for (int i = 0; i < rows.size(); i++) {
            RowData row = rows.get(i);
            Variant want = expected.get(i);
            assertThat(row.getInt(0)).isEqualTo(i);
            if (want == null) {
                assertThat(row.isNullAt(1)).as("row %d", i).isTrue();
                assertThat(row.isNullAt(2)).as("row %d", i).isTrue();
                assertThat(row.getRow(3, 1).isNullAt(0)).as("row %d", i).isTrue();
                continue;
            }
            assertThat(row.getVariant(1).toJson()).as("row %d", i).isEqualTo(want.toJson());
            assertThat(row.getArray(2).size()).isEqualTo(3);
            assertThat(row.getArray(2).getVariant(0).toJson()).isEqualTo(want.toJson());
            assertThat(row.getArray(2).isNullAt(1)).isTrue();
            assertThat(row.getArray(2).getVariant(2).toJson()).isEqualTo(want.toJson());
            assertThat(row.getRow(3, 1).getVariant(0).toJson()).isEqualTo(want.toJson());
        }
    }

    private static String json(org.apache.iceberg.variants.Variant variant) {
        return flink(variant).toJson();
    }

    /** Iceberg's variant as Flink's, through the connector's own conversion. */
    private static Variant flink(org.apache.iceberg.variants.Variant variant) {
        return (Variant) FlinkVariants.toFlink(variant);
    }

    private static org.apache.parquet.schema.GroupType shreddedField(
            String name, org.apache.parquet.schema.Type typed) {
        return org.apache.parquet.schema.Types.requiredGroup()
                .optional(PrimitiveType.PrimitiveTypeName.BINARY)
                .named("value")
                .addField(typed)
                .named(name);
    }

    private static org.apache.parquet.schema.Type stringColumn() {
        return org.apache.parquet.schema.Types.optional(PrimitiveType.PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("typed_value");
    }

    private static org.apache.parquet.schema.Type intColumn() {
        return org.apache.parquet.schema.Types.optional(PrimitiveType.PrimitiveTypeName.INT32)
                .named("typed_value");
    }
}
