package dev.icebergflink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.formats.avro.typeutils.GenericRecordAvroTypeInfo;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class RowDataConvertersTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                    Types.NestedField.optional(3, "day", Types.DateType.get()),
                    Types.NestedField.optional(4, "at", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(5, "at_tz", Types.TimestampType.withZone()),
                    Types.NestedField.optional(6, "amount", Types.DecimalType.of(9, 2)),
                    Types.NestedField.optional(
                            7, "tags", Types.ListType.ofOptional(8, Types.StringType.get())),
                    Types.NestedField.optional(
                            9,
                            "scores",
                            Types.MapType.ofOptional(
                                    10, 11, Types.StringType.get(), Types.IntegerType.get())),
                    Types.NestedField.optional(
                            12,
                            "point",
                            Types.StructType.of(
                                    Types.NestedField.required(13, "x", Types.DoubleType.get()))));

    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    private static final LocalDateTime AT = LocalDateTime.of(2024, 2, 29, 12, 30, 1, 123_456_000);
    private static final Instant AT_TZ = Instant.parse("2024-03-01T00:00:00.000001Z");

    private static RowData row() {
        return GenericRowData.of(
                7L,
                StringData.fromString("seven"),
                (int) LocalDate.of(2024, 2, 29).toEpochDay(),
                TimestampData.fromLocalDateTime(AT),
                TimestampData.fromInstant(AT_TZ),
                DecimalData.fromBigDecimal(new BigDecimal("12.34"), 9, 2),
                new GenericArrayData(new Object[] {StringData.fromString("a"), null}),
                new GenericMapData(Map.of(StringData.fromString("k"), 3)),
                GenericRowData.of(1.5d));
    }

    @Test
    void identityKeepsRowsAndProducesInternalTypeInfo() {
        IdentityRowDataConverter converter = new IdentityRowDataConverter(ROW_TYPE);
        RowData row = row();
        assertThat(converter.convert(row)).isSameAs(row);
        assertThat(converter.getProducedType()).isEqualTo(InternalTypeInfo.of(ROW_TYPE));
    }

    @Test
    void rowConverterProducesExternalJavaValues() throws Exception {
        RowConverter converter = new RowConverter(ROW_TYPE);
        Row row = converter.convert(row());

        assertThat(row.getArity()).isEqualTo(9);
        assertThat(row.getField(0)).isEqualTo(7L);
        assertThat(row.getField(1)).isEqualTo("seven");
        assertThat(row.getField(2)).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(row.getField(3)).isEqualTo(AT);
        assertThat(row.getField(4)).isEqualTo(AT_TZ);
        assertThat(row.getField(5)).isEqualTo(new BigDecimal("12.34"));
        assertThat((Object[]) row.getField(6)).containsExactly("a", null);
        assertThat(row.getField(7)).isEqualTo(Map.of("k", 3));
        assertThat(row.getField(8)).isEqualTo(Row.of(1.5d));
        assertThat(row.getFieldNames(true))
                .containsExactly(
                        "id", "name", "day", "at", "at_tz", "amount", "tags", "scores", "point");

        // rows survive Flink serialization with the produced type
        TypeSerializer<Row> serializer =
                converter
                        .getProducedType()
                        .createSerializer(new ExecutionConfig().getSerializerConfig());
        assertThat(roundTrip(serializer, row)).isEqualTo(row);
    }

    @Test
    void avroConverterProducesRecordsOfIcebergsAvroSchema() throws Exception {
        AvroGenericRecordConverter converter = new AvroGenericRecordConverter(SCHEMA, "events");
        GenericRecord record = converter.convert(row());

        assertThat(record.getSchema().getName()).isEqualTo("events");
        assertThat(record.getSchema().getField("id").getObjectProp("field-id")).isEqualTo(1);
        assertThat(record.get("id")).isEqualTo(7L);
        assertThat(record.get("name").toString()).isEqualTo("seven");
        assertThat(record.get("day")).isEqualTo((int) LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(record.get("at"))
                .isEqualTo(AT.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + 123_456L);
        assertThat(record.get("at_tz")).isEqualTo(AT_TZ.getEpochSecond() * 1_000_000L + 1);
        assertThat(
                        new BigDecimal(
                                new java.math.BigInteger(
                                        ((org.apache.avro.generic.GenericFixed)
                                                        record.get("amount"))
                                                .bytes()),
                                2))
                .isEqualTo(new BigDecimal("12.34"));
        assertThat(((List<?>) record.get("tags")).get(0).toString()).isEqualTo("a");
        assertThat(((List<?>) record.get("tags")).get(1)).isNull();
        assertThat(((Map<?, ?>) record.get("scores")).entrySet())
                .singleElement()
                .satisfies(
                        entry -> {
                            assertThat(entry.getKey().toString()).isEqualTo("k");
                            assertThat(entry.getValue()).isEqualTo(3);
                        });
        assertThat(((GenericRecord) record.get("point")).get("x")).isEqualTo(1.5d);

        assertThat(converter.getProducedType())
                .isEqualTo(new GenericRecordAvroTypeInfo(converter.avroSchema()));
        TypeSerializer<GenericRecord> serializer =
                converter
                        .getProducedType()
                        .createSerializer(new ExecutionConfig().getSerializerConfig());
        assertThat(roundTrip(serializer, record).toString()).isEqualTo(record.toString());
    }

    @Test
    void convertersAreSerializableAndWorkAfterwards() throws Exception {
        AvroGenericRecordConverter avro =
                org.apache.flink.util.InstantiationUtil.clone(
                        new AvroGenericRecordConverter(SCHEMA, "events"));
        RowConverter rows =
                org.apache.flink.util.InstantiationUtil.clone(new RowConverter(ROW_TYPE));
        assertThat(avro.convert(row()).get("id")).isEqualTo(7L);
        assertThat(rows.convert(row()).getField(1)).isEqualTo("seven");
    }

    private static <T> T roundTrip(TypeSerializer<T> serializer, T value) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(value, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
