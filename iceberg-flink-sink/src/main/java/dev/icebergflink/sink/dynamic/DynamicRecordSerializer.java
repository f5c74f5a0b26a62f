package dev.icebergflink.sink.dynamic;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Serializer of {@link DynamicRecord}s on their way to the operator that changes their table (and
 * in unaligned checkpoints, which store records in flight).
 *
 * <p>Only records whose table needs a change take that way, so the format carries the record's
 * schema and spec whole, as Iceberg's JSON; parsed schemas and specs are kept per serializer
 * instance (bounded), since consecutive records mostly share them.
 *
 * <p>Format of version {@value #VERSION_1}, per record: the version byte, the table ({@link
 * TableIdentifierCodec}), the branch (presence byte, name), the schema and the spec as
 * length-prefixed JSON, the distribution mode's name, the write parallelism (int), the upsert flag,
 * the equality fields (an int count and the names, sorted), and the row ({@link BinaryRows}).
 */
@Internal
public final class DynamicRecordSerializer extends RecordSerializer<DynamicRecord> {

    private static final long serialVersionUID = 1L;

    /** The first (and current) format. */
    static final int VERSION_1 = 1;

    /** Parsed schemas, specs and converted row types kept per serializer instance. */
    private static final int CACHE_SIZE = 64;

    private transient Map<Schema, SchemaForm> bySchema;
    private transient Map<String, Schema> schemasByJson;
    private transient Map<List<String>, PartitionSpec> specsByJson;

    @Override
    public TypeSerializer<DynamicRecord> duplicate() {
        return new DynamicRecordSerializer();
    }

    @Override
    public DynamicRecord copy(DynamicRecord from) {
        DynamicRecord copy =
                new DynamicRecord(
                        from.tableIdentifier(),
                        from.branch(),
                        from.schema(),
                        rows().copy(from.rowData(), form(from.schema()).rowType),
                        from.spec(),
                        from.distributionMode(),
                        from.writeParallelism());
        copy.setUpsertMode(from.upsertMode());
        copy.setEqualityFields(from.equalityFields());
        return copy;
    }

    @Override
    public void serialize(DynamicRecord record, DataOutputView out) throws IOException {
        SchemaForm form = form(record.schema());
        out.writeByte(VERSION_1);
        TableIdentifierCodec.write(record.tableIdentifier(), out);
        TableIdentifierCodec.writeNullable(record.branch(), out);
        LengthPrefixedStrings.write(form.json, out);
        LengthPrefixedStrings.write(PartitionSpecParser.toJson(record.spec()), out);
        out.writeUTF(record.distributionMode().modeName());
        out.writeInt(record.writeParallelism());
        out.writeBoolean(record.upsertMode());
        Set<String> fields = new TreeSet<>(record.equalityFields());
        out.writeInt(fields.size());
        for (String field : fields) {
            LengthPrefixedStrings.write(field, out);
        }
        rows().write(record.rowData(), form.rowType, out);
    }

    @Override
    public DynamicRecord deserialize(DataInputView in) throws IOException {
        int version = in.readByte();
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown format version "
                            + version
                            + " of a dynamic sink input record; this sink reads version "
                            + VERSION_1);
        }
        TableIdentifier table = TableIdentifierCodec.read(in);
        String branch = TableIdentifierCodec.readNullable(in);
        String schemaJson = LengthPrefixedStrings.read(in);
        String specJson = LengthPrefixedStrings.read(in);
        DistributionMode mode = DistributionMode.fromName(in.readUTF());
        int writeParallelism = in.readInt();
        boolean upsert = in.readBoolean();
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt dynamic sink input record: " + count + " fields");
        }
        Set<String> fields = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            fields.add(LengthPrefixedStrings.read(in));
        }
        RowData row = rows().read(in);
        Schema schema = schemasByJson().computeIfAbsent(schemaJson, SchemaParser::fromJson);
        PartitionSpec spec =
                specsByJson()
                        .computeIfAbsent(
                                List.of(schemaJson, specJson),
                                key -> PartitionSpecParser.fromJson(schema, specJson));
        DynamicRecord record =
                new DynamicRecord(table, branch, schema, row, spec, mode, writeParallelism);
        record.setUpsertMode(upsert);
        record.setEqualityFields(fields);
        return record;
    }

    private SchemaForm form(Schema schema) {
        if (bySchema == null) {
            bySchema = new IdentityHashMap<>();
        }
        SchemaForm form = bySchema.get(schema);
        if (form == null) {
            if (bySchema.size() >= CACHE_SIZE) {
                bySchema.clear();
            }
            form = new SchemaForm(SchemaParser.toJson(schema), FlinkSchemaUtil.convert(schema));
            bySchema.put(schema, form);
        }
        return form;
    }

    private Map<String, Schema> schemasByJson() {
        if (schemasByJson == null) {
            schemasByJson = LruMaps.bounded(CACHE_SIZE);
        }
        return schemasByJson;
    }

    private Map<List<String>, PartitionSpec> specsByJson() {
        if (specsByJson == null) {
            specsByJson = LruMaps.bounded(CACHE_SIZE);
        }
        return specsByJson;
    }

    @Override
    public TypeSerializerSnapshot<DynamicRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot: the serializer has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<DynamicRecord> {
        public Snapshot() {
            super(DynamicRecordSerializer::new);
        }
    }

    /** A schema's JSON and Flink row type. */
    private record SchemaForm(String json, RowType rowType) {}
}
