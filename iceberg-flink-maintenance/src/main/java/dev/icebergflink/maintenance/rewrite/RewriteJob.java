package dev.icebergflink.maintenance.rewrite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;

/**
 * Runs the read-and-write part of a rewrite as one Flink {@code BATCH} job: the work units are the
 * job's input (parallelism 1), rebalanced over up to {@code maxParallelism} {@link
 * RewriteUnitFunction} tasks, whose written files are collected back to the caller.
 *
 * <p>On tables that track row lineage (format v3+) the rows are read with their {@code _row_id} and
 * {@code _last_updated_sequence_number} (stored in the file, or derived from the file's first row
 * id, the row position and the file's sequence number) and written as real columns, so Iceberg
 * keeps them when it assigns the new files' first row ids at commit.
 *
 * <p>The job commits nothing: the caller commits the collected files in one Iceberg operation.
 * Files written by tasks of a job that fails are not committed and become orphan files (each task
 * removes its own files when it fails; files of tasks that had finished stay until {@code
 * deleteOrphanFiles()} removes them).
 */
@Internal
public final class RewriteJob {

    private static final TypeInformation<byte[]> BYTES =
            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;

    private RewriteJob() {}

    /**
     * Reads and rewrites every unit of {@code plan}; returns the data files written.
     *
     * @param env the environment the job runs in (switched to BATCH execution)
     * @param table the table being rewritten
     * @param plan the planned units
     * @param maxParallelism the maximum number of tasks
     * @param jobName the Flink job name
     */
    public static List<DataFile> run(
            StreamExecutionEnvironment env,
            Table table,
            PlannedRewrite plan,
            int maxParallelism,
            String jobName)
            throws Exception {
        if (plan.isEmpty()) {
            return List.of();
        }
        Table copy = SerializableTable.copyOf(table);
        RewriteUnitSerializer serializer = UnitRewriter.unitSerializer(copy);
        List<byte[]> units = new ArrayList<>(plan.units().size());
        for (CombinedScanTask unit : plan.units()) {
            units.add(SimpleVersionedSerialization.writeVersionAndSerialize(serializer, unit));
        }
        int parallelism = Math.max(1, Math.min(maxParallelism, units.size()));

        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        DataStream<byte[]> results =
                env.fromData(units, BYTES)
                        .name("rewrite-units")
                        .setParallelism(1)
                        .rebalance()
                        .flatMap(
                                new RewriteUnitFunction(
                                        copy,
                                        UnitRewriter.dataSchema(copy),
                                        UnitRewriter.dataFileFormat(copy),
                                        plan.writeTargetFileSize()))
                        .name("rewrite-files")
                        .setParallelism(parallelism)
                        .returns(BYTES);

        WrittenFilesSerializer filesSerializer = new WrittenFilesSerializer(copy.specs());
        List<DataFile> written = new ArrayList<>();
        try (CloseableIterator<byte[]> collected = results.executeAndCollect(jobName)) {
            while (collected.hasNext()) {
                written.addAll(
                        SimpleVersionedSerialization.readVersionAndDeSerialize(
                                filesSerializer, collected.next()));
            }
        } catch (Exception e) {
            // Files collected before the failure are known: remove them, they will never be used.
            RewriteCommitter.deleteQuietly(table, written, e);
            if (e instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw e;
        }
        return written;
    }
}
