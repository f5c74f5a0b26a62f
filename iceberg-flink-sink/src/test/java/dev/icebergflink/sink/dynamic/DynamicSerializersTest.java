package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.GoldenFiles;
import dev.icebergflink.sink.committer.GoldenObjects;
import dev.icebergflink.sink.committer.WriteResultSerializer;
import java.io.IOException;
import java.util.Set;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Golden bytes and round trips of the dynamic sink's records in flight and writer results. */
class DynamicSerializersTest {

    private static final TableIdentifier TABLE =
            TableIdentifier.of(Namespace.of("lake", "sales.eu"), "orders");

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                    Types.NestedField.optional(
                            3,
                            "address",
                            Types.StructType.of(
                                    Types.NestedField.optional(
                                            4, "city", Types.StringType.get()))));

    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    private static RowData row() {
        GenericRowData row =
                GenericRowData.of(
                        7L,
                        StringData.fromString("Ada"),
                        GenericRowData.of(StringData.fromString("Zürich")));
        row.setRowKind(RowKind.UPDATE_AFTER);
        return row;
    }

    private static ResolvedRecord resolved() {
        return new ResolvedRecord(
                TABLE, "audit", 3, 1, row(), true, new int[] {1}, 4, -12345, ROW_TYPE);
    }

    private static DynamicRecord dynamic() {
        DynamicRecord record =
                new DynamicRecord(
                        TABLE,
                        "audit",
                        SCHEMA,
                        row(),
                        PartitionSpec.builderFor(SCHEMA).bucket("id", 8).build(),
                        DistributionMode.HASH,
                        3);
        record.setUpsertMode(true);
        record.setEqualityFields(Set.of("id"));
        return record;
    }

    @Test
    void resolvedRecordGoldenBytes() throws IOException {
        ResolvedRecordSerializer serializer = new ResolvedRecordSerializer();
        byte[] golden =
                GoldenFiles.assertGolden(
                        "dynamic-resolved-record",
                        ResolvedRecordSerializer.VERSION_1,
                        bytes(serializer, resolved()));
        ResolvedRecord read = serializer.deserialize(new DataInputDeserializer(golden));
        assertThat(read.table()).isEqualTo(TABLE);
        assertThat(read.table().namespace().levels()).containsExactly("lake", "sales.eu");
        assertThat(read.branch()).isEqualTo("audit");
        assertThat(read.schemaId()).isEqualTo(3);
        assertThat(read.specId()).isEqualTo(1);
        assertThat(read.upsert()).isTrue();
        assertThat(read.equalityFieldIds()).containsExactly(1);
        assertThat(read.writeParallelism()).isEqualTo(4);
        assertThat(read.distributionKey()).isEqualTo(-12345);
        assertRow(read.row());
        // a record read back is written again without its type: the row is binary
        assertThat(bytes(serializer, read)).isEqualTo(golden);
    }

    @Test
    void dynamicRecordGoldenBytes() throws IOException {
        DynamicRecordSerializer serializer = new DynamicRecordSerializer();
        byte[] golden =
                GoldenFiles.assertGolden(
                        "dynamic-record",
                        DynamicRecordSerializer.VERSION_1,
                        bytes(serializer, dynamic()));
        DynamicRecord read = serializer.deserialize(new DataInputDeserializer(golden));
        assertThat(read.tableIdentifier()).isEqualTo(TABLE);
        assertThat(read.branch()).isEqualTo("audit");
        assertThat(read.schema().sameSchema(SCHEMA)).isTrue();
        assertThat(read.spec().fields()).hasSize(1);
        assertThat(read.spec().fields().get(0).transform().toString()).isEqualTo("bucket[8]");
        assertThat(read.distributionMode()).isEqualTo(DistributionMode.HASH);
        assertThat(read.writeParallelism()).isEqualTo(3);
        assertThat(read.upsertMode()).isTrue();
        assertThat(read.equalityFields()).containsExactly("id");
        assertRow(read.rowData());
    }

    @Test
    void copiesShareNoRowWithTheOriginal() {
        ResolvedRecord original = resolved();
        ResolvedRecord copy = new ResolvedRecordSerializer().copy(original);
        assertThat(copy.row()).isNotSameAs(original.row());
        assertRow(copy.row());
        DynamicRecord dynamicCopy = new DynamicRecordSerializer().copy(dynamic());
        assertRow(dynamicCopy.rowData());
        assertThat(dynamicCopy.equalityFields()).containsExactly("id");
    }

    @Test
    void writeResultGoldenBytes() throws IOException {
        DynamicWriteResultSerializer serializer =
                new DynamicWriteResultSerializer(
                        table -> WriteResultSerializer.forSpecs(GoldenObjects.SPECS));
        DynamicWriteResult result =
                new DynamicWriteResult(TABLE, "main", 1, GoldenObjects.writeResult());
        byte[] golden =
                GoldenFiles.assertGolden(
                        "dynamic-write-result",
                        DynamicWriteResultSerializer.VERSION_2,
                        serializer.serialize(result));
        DynamicWriteResult read =
                serializer.deserialize(DynamicWriteResultSerializer.VERSION_2, golden);
        assertThat(read.table()).isEqualTo(TABLE);
        assertThat(read.branch()).isEqualTo("main");
        assertThat(read.generation()).isEqualTo(1);
        DynamicWriteResult versionOne =
                serializer.deserialize(
                        DynamicWriteResultSerializer.VERSION_1,
                        java.nio.file.Files.readAllBytes(
                                GoldenFiles.path(
                                        "dynamic-write-result",
                                        DynamicWriteResultSerializer.VERSION_1)));
        assertThat(versionOne.generation()).as("version 1 has generation 0").isZero();
        assertThat(versionOne.result().dataFiles()).hasSameSizeAs(read.result().dataFiles());
        WriteResult expected = GoldenObjects.writeResult();
        assertThat(read.result().dataFiles()).hasSameSizeAs(expected.dataFiles());
        assertThat(read.result().dataFiles()[0].location())
                .isEqualTo(expected.dataFiles()[0].location());
        assertThat(read.result().deleteFiles()).hasSameSizeAs(expected.deleteFiles());
        assertThat(read.result().referencedDataFiles())
                .containsExactlyElementsOf(java.util.List.of(expected.referencedDataFiles()));
    }

    @Test
    void unknownVersionsAreRefused() throws IOException {
        byte[] bytes = bytes(new ResolvedRecordSerializer(), resolved());
        bytes[0] = 9;
        assertThatThrownBy(
                        () ->
                                new ResolvedRecordSerializer()
                                        .deserialize(new DataInputDeserializer(bytes)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 9");
        DynamicWriteResultSerializer results =
                new DynamicWriteResultSerializer(
                        table -> WriteResultSerializer.forSpecs(GoldenObjects.SPECS));
        assertThatThrownBy(() -> results.deserialize(3, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
    }

    private static void assertRow(RowData row) {
        assertThat(row.getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);
        assertThat(row.getLong(0)).isEqualTo(7L);
        assertThat(row.getString(1).toString()).isEqualTo("Ada");
        assertThat(row.getRow(2, 1).getString(0).toString()).isEqualTo("Zürich");
    }

    private static <T> byte[] bytes(TypeSerializer<T> serializer, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        serializer.serialize(value, out);
        return out.getCopyOfBuffer();
    }
}
