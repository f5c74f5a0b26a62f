package dev.icebergflink.sink.dynamic;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.committer.WriteResultSerializer;
import java.io.IOException;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;

/**
 * Versioned serializer of {@link DynamicWriteResult}s, for the way from the writers to the
 * aggregation and for the aggregation's state.
 *
 * <p>Format of version {@value #VERSION_2}: the table ({@link TableIdentifierCodec}), the branch
 * (length-prefixed UTF-8), the generation (int), the version of the result's format (int) and the
 * {@link WriteResult} in that format, as {@link WriteResultSerializer} writes it (its files'
 * partition specs are looked up in the table's metadata by spec id). Version {@value #VERSION_1}
 * has no generation; its results are generation 0.
 */
@Internal
public final class DynamicWriteResultSerializer
        implements SimpleVersionedSerializer<DynamicWriteResult> {

    /** The first format, without generations. */
    public static final int VERSION_1 = 1;

    /** The current format, with the generation. */
    public static final int VERSION_2 = 2;

    /** Tables whose spec lookups are kept (each holds its specs only). */
    private static final int MAX_TABLES = 1024;

    private final Function<TableIdentifier, WriteResultSerializer> serializerOf;
    private final Map<TableIdentifier, WriteResultSerializer> serializers =
            LruMaps.bounded(MAX_TABLES);

    /** A serializer that looks partition specs up in the tables of {@code catalogLoader}. */
    public DynamicWriteResultSerializer(CatalogLoader catalogLoader) {
        this(table -> new WriteResultSerializer(TableLoader.fromCatalog(catalogLoader, table)));
    }

    /** A serializer with the given result serializer per table (tests). */
    DynamicWriteResultSerializer(Function<TableIdentifier, WriteResultSerializer> serializerOf) {
        this.serializerOf = serializerOf;
    }

    @Override
    public int getVersion() {
        return VERSION_2;
    }

    @Override
    public byte[] serialize(DynamicWriteResult result) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        TableIdentifierCodec.write(result.table(), out);
        out.writeUTF(result.branch());
        out.writeInt(result.generation());
        out.writeInt(WriteResultSerializer.CURRENT_VERSION);
        serializer(result.table()).write(result.result(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public DynamicWriteResult deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException(
                    "Unknown DynamicWriteResult serialization version "
                            + version
                            + "; this sink reads versions "
                            + VERSION_1
                            + " and "
                            + VERSION_2);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        TableIdentifier table = TableIdentifierCodec.read(in);
        String branch = in.readUTF();
        int generation = version == VERSION_1 ? 0 : in.readInt();
        int resultVersion = in.readInt();
        if (resultVersion != WriteResultSerializer.VERSION_1) {
            throw new IOException(
                    "Unknown WriteResult serialization version "
                            + resultVersion
                            + " in a DynamicWriteResult of "
                            + table);
        }
        WriteResult result = serializer(table).read(in);
        if (in.available() != 0) {
            throw new IOException(
                    "Corrupt DynamicWriteResult: " + in.available() + " trailing bytes");
        }
        return new DynamicWriteResult(table, branch, generation, result);
    }

    private WriteResultSerializer serializer(TableIdentifier table) {
        return serializers.computeIfAbsent(table, serializerOf);
    }
}
