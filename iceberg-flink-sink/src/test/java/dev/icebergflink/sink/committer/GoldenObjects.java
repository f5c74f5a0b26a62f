package dev.icebergflink.sink.committer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/** Fixed, fully deterministic objects behind the golden-bytes tests. */
public final class GoldenObjects {

    static final PartitionSpec SPEC = SinkTestTables.BY_DATA;
    public static final Map<Integer, PartitionSpec> SPECS = Map.of(SPEC.specId(), SPEC);
    static final String TABLE = "s3://bucket/warehouse/db/t";

    private GoldenObjects() {}

    private static ByteBuffer longBound(long value) {
        return Conversions.toByteBuffer(Types.LongType.get(), value);
    }

    static DataFile dataFile() {
        Metrics metrics =
                new Metrics(
                        10L,
                        new TreeMap<>(Map.of(1, 40L, 2, 60L)),
                        new TreeMap<>(Map.of(1, 10L, 2, 10L)),
                        new TreeMap<>(Map.of(1, 0L, 2, 2L)),
                        new TreeMap<>(),
                        new TreeMap<>(Map.of(1, longBound(1L))),
                        new TreeMap<>(Map.of(1, longBound(10L))));
        return DataFiles.builder(SPEC)
                .withPath(TABLE + "/data/data=a/00000-0-golden.parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(1024L)
                .withPartitionPath("data=a")
                .withMetrics(metrics)
                .withSplitOffsets(List.of(4L))
                .build();
    }

    static DeleteFile equalityDelete() {
        return FileMetadata.deleteFileBuilder(SPEC)
                .ofEqualityDeletes(1)
                .withPath(TABLE + "/data/data=a/00000-0-golden-eq.parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(300L)
                .withRecordCount(2L)
                .withPartitionPath("data=a")
                .build();
    }

    static DeleteFile positionDelete() {
        return FileMetadata.deleteFileBuilder(SPEC)
                .ofPositionDeletes()
                .withPath(TABLE + "/data/data=a/00000-0-golden-pos.parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(200L)
                .withRecordCount(1L)
                .withPartitionPath("data=a")
                .build();
    }

    public static WriteResult writeResult() {
        return WriteResult.builder()
                .addDataFiles(dataFile())
                .addDeleteFiles(equalityDelete(), positionDelete())
                .addReferencedDataFiles(dataFile().location())
                .build();
    }

    static ManifestFile manifest(String name, boolean deletes) {
        InMemoryOutputFile out = new InMemoryOutputFile(TABLE + "/metadata/" + name + ".avro");
        try {
            if (deletes) {
                ManifestWriter<DeleteFile> writer =
                        ManifestFiles.writeDeleteManifest(
                                2, SPEC, out, TemporaryManifests.PLACEHOLDER_SNAPSHOT_ID);
                try (writer) {
                    writer.add(equalityDelete());
                }
                return writer.toManifestFile();
            }
            ManifestWriter<DataFile> writer =
                    ManifestFiles.write(2, SPEC, out, TemporaryManifests.PLACEHOLDER_SNAPSHOT_ID);
            try (writer) {
                writer.add(dataFile());
            }
            return writer.toManifestFile();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The run id of the golden committable of version 2. */
    static final String RUN_ID = "5c5c5c5c-0000-4000-8000-5c5c5c5c5c5c";

    /** The golden committable of version 2 (with a run id). */
    public static IcebergCommittable committable() {
        return committable(RUN_ID);
    }

    /** The golden committable with the given run id (empty: as read from version 1). */
    static IcebergCommittable committable(String runId) {
        return new IcebergCommittable(
                new CommitOwner(
                        "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1",
                        "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f",
                        runId),
                42L,
                true,
                List.of(manifest("flink-golden-42-data", false)),
                List.of(manifest("flink-golden-42-delete", true)),
                List.of(),
                List.of(dataFile().location()));
    }
}
