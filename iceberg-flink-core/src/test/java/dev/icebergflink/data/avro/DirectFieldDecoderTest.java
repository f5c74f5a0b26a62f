package dev.icebergflink.data.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.row.BinaryRowBuilder;
import dev.icebergflink.testing.TestSchemas;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.avro.AvroSchemaUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Which file fields {@link DirectFieldDecoder} decodes directly, and the encodings other writers
 * than Iceberg's produce (variable-length and sign-padded decimals, null as the second branch).
 */
class DirectFieldDecoderTest {

    @Test
    void decodesEveryPrimitiveIcebergWrites() {
        org.apache.iceberg.Schema schema = TestSchemas.ALL_PRIMITIVES;
        Schema avro = AvroSchemaUtil.convert(schema, "row");
        for (Types.NestedField field : schema.columns()) {
            Schema fileField = avro.getField(field.name()).schema();
            assertThat(DirectFieldDecoder.forField(fileField, field.type(), new ScratchBytes()))
                    .as("decoder of %s", field)
                    .isNotNull();
        }
        org.apache.iceberg.Schema nanos = TestSchemas.V3_PRIMITIVES;
        Schema avroNanos = AvroSchemaUtil.convert(nanos, "row");
        for (Types.NestedField field : nanos.columns()) {
            assertThat(
                            DirectFieldDecoder.forField(
                                    avroNanos.getField(field.name()).schema(),
                                    field.type(),
                                    new ScratchBytes()))
                    .as("decoder of %s", field)
                    .isNotNull();
        }
    }

    @Test
    void leavesOtherFieldsToTheGeneralPath() {
        Schema intOrString = SchemaBuilder.unionOf().intType().and().stringType().endUnion();
        Schema threeBranches =
                SchemaBuilder.unionOf().nullType().and().intType().and().longType().endUnion();
        Schema record = SchemaBuilder.record("r").fields().requiredInt("a").endRecord();

        assertThat(
                        DirectFieldDecoder.forField(
                                intOrString, Types.IntegerType.get(), new ScratchBytes()))
                .isNull();
        assertThat(
                        DirectFieldDecoder.forField(
                                threeBranches, Types.LongType.get(), new ScratchBytes()))
                .isNull();
        assertThat(
                        DirectFieldDecoder.forField(
                                record,
                                Types.StructType.of(
                                        Types.NestedField.required(
                                                1, "a", Types.IntegerType.get())),
                                new ScratchBytes()))
                .isNull();
        assertThat(
                        DirectFieldDecoder.forField(
                                Schema.create(Schema.Type.STRING),
                                Types.LongType.get(),
                                new ScratchBytes()))
                .isNull();
    }

    @Test
    void decodesVariableLengthAndSignPaddedDecimals() throws IOException {
        Schema bytesDecimal =
                LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES));
        org.apache.iceberg.Schema expected =
                new org.apache.iceberg.Schema(
                        Types.NestedField.optional(1, "compact", Types.DecimalType.of(10, 2)),
                        Types.NestedField.optional(2, "padded", Types.DecimalType.of(10, 2)),
                        Types.NestedField.optional(3, "wide", Types.DecimalType.of(30, 2)),
                        Types.NestedField.optional(4, "empty", Types.DecimalType.of(10, 2)));
        Schema nullSecond = SchemaBuilder.unionOf().type(bytesDecimal).and().nullType().endUnion();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        encoder.writeIndex(0);
        encoder.writeBytes(ByteBuffer.wrap(new byte[] {(byte) 0xFE, 0x0C})); // -500
        encoder.writeIndex(0);
        // -500 sign-extended to ten bytes, more than a long holds
        encoder.writeBytes(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1, (byte) 0xFE, 0x0C}); // -500
        encoder.writeIndex(0);
        encoder.writeBytes(
                new BigDecimal("123456789012345678901234567.89").unscaledValue().toByteArray());
        encoder.writeIndex(1);
        encoder.flush();
        Decoder decoder = DecoderFactory.get().binaryDecoder(out.toByteArray(), null);

        BinaryRowBuilder builder = new BinaryRowBuilder(FlinkSchemaUtil.convert(expected));
        builder.begin();
        ScratchBytes scratch = new ScratchBytes();
        for (int pos = 0; pos < 4; pos++) {
            DirectFieldDecoder.forField(nullSecond, expected.columns().get(pos).type(), scratch)
                    .decode(decoder, builder, pos);
        }
        RowData row = builder.finish();

        assertThat(row.getDecimal(0, 10, 2).toBigDecimal()).isEqualTo(new BigDecimal("-5.00"));
        assertThat(row.getDecimal(1, 10, 2).toBigDecimal()).isEqualTo(new BigDecimal("-5.00"));
        assertThat(row.getDecimal(2, 30, 2).toBigDecimal())
                .isEqualTo(new BigDecimal("123456789012345678901234567.89"));
        assertThat(row.isNullAt(3)).isTrue();
    }
}
