package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.io.RollingEqualityDeleteWriter;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The table of the {@code eqdelete-*} workloads: shaped like the table a streaming upsert keyed by
 * {@code id} leaves behind, so that reading it before and after {@code RewriteEqualityDeletes}
 * shows what the equality deletes cost a reader and what the conversion gives back.
 *
 * <p>It is built with Iceberg's generic writers, deterministically, in {@code 1 + }{@link
 * #UPSERT_COMMITS} commits:
 *
 * <ol>
 *   <li>an append of the rows {@code [0, rows)} (the initial load, as {@link GenericLimits#write});
 *   <li>then {@link #UPSERT_COMMITS} row deltas, each like one checkpoint of an upsert writer:
 *       commit {@code c} rewrites every id whose last decimal digit is {@code 2c-2}, {@code 2c-1}
 *       or {@code 2c} (30% of the keys, a tenth of them rewritten again by the next commit), with
 *       the values of {@code BenchmarkRows(seed + c)}, as new data files plus equality delete files
 *       on {@code id} holding exactly the rewritten keys. As behind a shuffle by {@code id}, the
 *       ids are spread over one writer per core by a hash of the id ({@link #writerOf}), so every
 *       data and delete file spans the whole id range and the scan planner cannot prune any delete
 *       file away from any data file by its bounds.
 * </ol>
 *
 * <p>At the end 70% of the initially loaded rows are deleted by equality, every id is live exactly
 * once, and the data files hold {@link #writtenRows(long) 1.9 times} the live rows.
 */
final class UpsertedTable {

    /** How many upsert commits follow the initial load. */
    static final int UPSERT_COMMITS = 3;

    private UpsertedTable() {}

    /** Whether upsert commit {@code commit} (from 1) rewrites {@code id}. */
    static boolean rewrites(int commit, long id) {
        int digit = (int) (id % 10);
        return digit >= 2 * commit - 2 && digit <= 2 * commit;
    }

    /** The commit whose values {@code id} holds at the end: 0 for the initial load. */
    static int lastCommit(long id) {
        for (int commit = UPSERT_COMMITS; commit > 0; commit--) {
            if (rewrites(commit, id)) {
                return commit;
            }
        }
        return 0;
    }

    /** The values commit {@code commit} writes (the initial load's for 0). */
    static BenchmarkRows values(BenchmarkRows data, int commit) {
        return commit == 0 ? data : new BenchmarkRows(data.seed() + commit);
    }

    /**
     * The writer of {@code id} among {@code writers}: a multiplicative hash of the id, so that
     * every writer gets about the same share of every commit's ids (the ids a commit rewrites are
     * chosen by their last digit, which {@code id % writers} would split unevenly).
     */
    static int writerOf(long id, int writers) {
        return Math.floorMod(Long.hashCode(id * 0x9E3779B97F4A7C15L), writers);
    }

    /** How many of the ids {@code [0, rows)} commit {@code commit} rewrites. */
    static long rewrittenBy(int commit, long rows) {
        long count = 0;
        for (int digit = 2 * commit - 2; digit <= 2 * commit; digit++) {
            count += rows / 10 + (digit < rows % 10 ? 1 : 0);
        }
        return count;
    }

    /** How many rows the data files hold: the initial load plus every upsert commit's rows. */
    static long writtenRows(long rows) {
        long written = rows;
        for (int commit = 1; commit <= UPSERT_COMMITS; commit++) {
            written += rewrittenBy(commit, rows);
        }
        return written;
    }

    /**
     * Creates the table {@code name} (dropping any left from an earlier attempt): Parquet, format
     * {@code formatVersion}, unpartitioned, {@link BenchmarkRows#KEYED_SCHEMA}, with the rows
     * {@code [0, rows)} of {@code data} loaded and then upserted as described above.
     */
    static Table create(
            BenchmarkTables tables, String name, int formatVersion, BenchmarkRows data, long rows) {
        Table table =
                tables.create(
                        name,
                        BenchmarkRows.KEYED_SCHEMA,
                        PartitionSpec.unpartitioned(),
                        FileFormat.PARQUET,
                        formatVersion);
        GenericLimits.write(table, data, rows);
        for (int commit = 1; commit <= UPSERT_COMMITS; commit++) {
            table.refresh();
            upsert(table, commit, values(data, commit), rows);
        }
        table.refresh();
        return table;
    }

    /** One upsert commit: every writer's data and equality delete files in one row delta. */
    private static void upsert(Table table, int commit, BenchmarkRows values, long rows) {
        int writers = GenericLimits.threads();
        Schema keySchema = table.schema().select("id");
        GenericFileWriterFactory factory =
                new GenericFileWriterFactory.Builder(table)
                        .dataFileFormat(FileFormat.PARQUET)
                        .dataSchema(table.schema())
                        .deleteFileFormat(FileFormat.PARQUET)
                        .equalityFieldIds(new int[] {table.schema().findField("id").fieldId()})
                        .equalityDeleteRowSchema(keySchema)
                        .build();
        long targetSize =
                PropertyUtil.propertyAsLong(
                        table.properties(),
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        RowDelta delta = table.newRowDelta();
        try {
            List<Future<Written>> parts = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                parts.add(
                        pool.submit(
                                () ->
                                        write(
                                                table,
                                                factory,
                                                keySchema,
                                                targetSize,
                                                commit,
                                                values,
                                                rows,
                                                writer,
                                                writers)));
            }
            for (Future<Written> part : parts) {
                Written written = part.get();
                written.data().forEach(delta::addRows);
                written.deletes().forEach(delta::addDeletes);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while upserting " + table.name(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Upsert commit " + commit + " failed", e);
        } finally {
            pool.shutdownNow();
        }
        delta.commit();
    }

    /** The ids of {@code writer} that the commit rewrites: new rows and their keys. */
    private static Written write(
            Table table,
            GenericFileWriterFactory factory,
            Schema keySchema,
            long targetSize,
            int commit,
            BenchmarkRows values,
            long rows,
            int writer,
            int writers)
            throws IOException {
        // the file names carry the commit and the writer, so no two writers share one
        OutputFileFactory outputs =
                OutputFileFactory.builderFor(table, writer, commit)
                        .format(FileFormat.PARQUET)
                        .build();
        RollingDataWriter<Record> data =
                new RollingDataWriter<>(
                        factory, outputs, table.io(), targetSize, table.spec(), null);
        RollingEqualityDeleteWriter<Record> deletes =
                new RollingEqualityDeleteWriter<>(
                        factory, outputs, table.io(), targetSize, table.spec(), null);
        Record key = GenericRecord.create(keySchema);
        try (data;
                deletes) {
            for (long id = 0; id < rows; id++) {
                if (rewrites(commit, id) && writerOf(id, writers) == writer) {
                    deletes.write(key.copy("id", id));
                    data.write(values.record(id));
                }
            }
        }
        return new Written(data.result().dataFiles(), deletes.result().deleteFiles());
    }

    private record Written(List<DataFile> data, List<DeleteFile> deletes) {}
}
