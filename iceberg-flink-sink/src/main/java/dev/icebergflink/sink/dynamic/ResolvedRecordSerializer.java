package dev.icebergflink.sink.dynamic;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Serializer of {@link ResolvedRecord}s on their way from the resolution to the writers (and in
 * unaligned checkpoints, which store records in flight).
 *
 * <p>Format of version {@value #VERSION_1}, per record: the version byte, the table ({@link
 * TableIdentifierCodec}), the branch (length-prefixed UTF-8), schema id, spec id (ints), the upsert
 * flag (byte), the equality field ids (an int count and the ids), the write parallelism and the
 * distribution key (ints), and the row ({@link BinaryRows}: arity, size, bytes).
 */
@Internal
public final class ResolvedRecordSerializer extends RecordSerializer<ResolvedRecord> {

    private static final long serialVersionUID = 1L;

    /** The first (and current) format. */
    static final int VERSION_1 = 1;

    @Override
    public TypeSerializer<ResolvedRecord> duplicate() {
        return new ResolvedRecordSerializer();
    }

    @Override
    public ResolvedRecord copy(ResolvedRecord from) {
        return from.withRow(rows().copy(from.row(), from.rowType()));
    }

    @Override
    public void serialize(ResolvedRecord record, DataOutputView out) throws IOException {
        out.writeByte(VERSION_1);
        TableIdentifierCodec.write(record.table(), out);
        out.writeUTF(record.branch());
        out.writeInt(record.schemaId());
        out.writeInt(record.specId());
        out.writeBoolean(record.upsert());
        int[] ids = record.equalityFieldIds();
        out.writeInt(ids.length);
        for (int id : ids) {
            out.writeInt(id);
        }
        out.writeInt(record.writeParallelism());
        out.writeInt(record.distributionKey());
        rows().write(record.row(), record.rowType(), out);
    }

    @Override
    public ResolvedRecord deserialize(DataInputView in) throws IOException {
        int version = in.readByte();
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown format version "
                            + version
                            + " of a dynamic sink record; this sink reads version "
                            + VERSION_1);
        }
        TableIdentifier table = TableIdentifierCodec.read(in);
        String branch = in.readUTF();
        int schemaId = in.readInt();
        int specId = in.readInt();
        boolean upsert = in.readBoolean();
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt dynamic sink record: " + count + " equality fields");
        }
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = in.readInt();
        }
        int writeParallelism = in.readInt();
        int distributionKey = in.readInt();
        RowData row = rows().read(in);
        return new ResolvedRecord(
                table,
                branch,
                schemaId,
                specId,
                row,
                upsert,
                ids,
                writeParallelism,
                distributionKey,
                null);
    }

    @Override
    public TypeSerializerSnapshot<ResolvedRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot: the serializer has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<ResolvedRecord> {
        public Snapshot() {
            super(ResolvedRecordSerializer::new);
        }
    }
}
