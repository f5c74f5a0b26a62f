package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Real file-system tables for the committer tests, and hand-made data and delete files for them
 * (the committer never reads data files, so their paths need not exist).
 */
final class SinkTestTables {

    static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));

    static final PartitionSpec BY_DATA = PartitionSpec.builderFor(SCHEMA).identity("data").build();

    private SinkTestTables() {}

    static Table create(Path dir, PartitionSpec spec, int formatVersion) {
        return create(dir, spec, formatVersion, Map.of());
    }

    static Table create(
            Path dir, PartitionSpec spec, int formatVersion, Map<String, String> props) {
        Map<String, String> all = new java.util.HashMap<>(props);
        all.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
        return new HadoopTables(new Configuration())
                .create(SCHEMA, spec, all, dir.resolve("table").toUri().toString());
    }

    static TableLoader loader(Table table) {
        return TableLoader.fromHadoopTable(table.location());
    }

    static DataFile dataFile(Table table, String name, String partitionValue, long records) {
        DataFiles.Builder builder =
                DataFiles.builder(table.spec())
                        .withPath(table.location() + "/data/" + name + ".parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withFileSizeInBytes(100 + records)
                        .withRecordCount(records);
        if (table.spec().isPartitioned()) {
            builder.withPartitionPath("data=" + partitionValue);
        }
        return builder.build();
    }

    static DeleteFile equalityDelete(Table table, String name, String partitionValue) {
        FileMetadata.Builder builder =
                FileMetadata.deleteFileBuilder(table.spec())
                        .ofEqualityDeletes(1)
                        .withPath(table.location() + "/data/" + name + "-eq.parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withFileSizeInBytes(50)
                        .withRecordCount(1);
        if (table.spec().isPartitioned()) {
            builder.withPartitionPath("data=" + partitionValue);
        }
        return builder.build();
    }

    static DeleteFile positionDelete(Table table, String name, String partitionValue) {
        FileMetadata.Builder builder =
                FileMetadata.deleteFileBuilder(table.spec())
                        .ofPositionDeletes()
                        .withPath(table.location() + "/data/" + name + "-pos.parquet")
                        .withFormat(FileFormat.PARQUET)
                        .withFileSizeInBytes(50)
                        .withRecordCount(1);
        if (table.spec().isPartitioned()) {
            builder.withPartitionPath("data=" + partitionValue);
        }
        return builder.build();
    }

    /**
     * The data file names (without directory and extension) the branch's current snapshot holds,
     * once per time the file is in the table (a file committed twice is listed twice).
     */
    static List<String> liveDataFiles(Table table, String branch) {
        table.refresh();
        List<String> names = new ArrayList<>();
        if (table.snapshot(branch) == null) {
            return names;
        }
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useRef(branch).planFiles()) {
            for (FileScanTask task : tasks) {
                String path = task.file().location();
                names.add(path.substring(path.lastIndexOf('/') + 1).replace(".parquet", ""));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return names;
    }

    /** The snapshots of a branch, oldest first. */
    static List<Snapshot> history(Table table, String branch) {
        table.refresh();
        List<Snapshot> snapshots = new ArrayList<>();
        Snapshot current = table.snapshot(branch);
        while (current != null) {
            snapshots.add(0, current);
            current = current.parentId() == null ? null : table.snapshot(current.parentId());
        }
        return snapshots;
    }
}
