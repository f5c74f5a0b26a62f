package dev.icebergflink.maintenance;

import static dev.icebergflink.maintenance.MaintenanceTables.asStrings;
import static dev.icebergflink.maintenance.MaintenanceTables.dataFiles;
import static dev.icebergflink.maintenance.MaintenanceTables.partitionOf;
import static dev.icebergflink.maintenance.MaintenanceTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.testing.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MiniCluster tests of {@code Actions.forTable(table).rewriteDataFiles()}. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RewriteDataFilesITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    /** Target size of the compaction tests: a few of the small input files' worth of rows. */
    private static final long TARGET = 40 * 1024;

    @TempDir Path dir;

    static StreamExecutionEnvironment env() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        return env;
    }

    @ParameterizedTest(name = "{0} v{1}")
    @CsvSource({"PARQUET, 2", "ORC, 1", "AVRO, 3"})
    void compactsSmallFilesIntoFilesOfAboutTheTargetSize(FileFormat format, int version) {
        Table table = MaintenanceTables.create(dir, "t", version, format);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 4, 10, 300, 7L);
        List<DataFile> before = dataFiles(table);
        assertThat(before).hasSize(40);
        assertThat(rows(table)).isEqualTo(asStrings(written));

        RewriteDataFilesActionResult result =
                Actions.forTable(env(), table)
                        .rewriteDataFiles()
                        .targetSizeInBytes(TARGET)
                        .execute();

        List<DataFile> after = dataFiles(table);
        assertThat(rows(table)).isEqualTo(asStrings(written));
        assertThat(locations(result.deletedDataFiles())).isEqualTo(locations(before));
        assertThat(locations(result.addedDataFiles())).isEqualTo(locations(after));
        assertThat(result.deletedDataFilesCount()).isEqualTo(40);
        assertThat(result.addedDataFilesCount()).isEqualTo(after.size());
        assertThat(result.rewrittenFileGroupsCount()).isEqualTo(4);
        assertThat(after.size()).isBetween(4, 16);
        for (DataFile file : after) {
            assertThat(file.format()).isEqualTo(format);
        }
        long totalBefore = before.stream().mapToLong(DataFile::fileSizeInBytes).sum();
        System.out.printf(
                "%s v%d: %d files of %d bytes -> %s%n",
                format,
                version,
                before.size(),
                totalBefore,
                after.stream().map(f -> partitionOf(f) + "=" + f.fileSizeInBytes()).toList());
        // Every partition is compacted into files of about the target size: all but the last
        // file of a partition reached the target, none is far above it.
        Map<String, List<Long>> sizes =
                after.stream()
                        .collect(
                                Collectors.groupingBy(
                                        MaintenanceTables::partitionOf,
                                        Collectors.mapping(
                                                DataFile::fileSizeInBytes, Collectors.toList())));
        assertThat(sizes).containsOnlyKeys("p0", "p1", "p2", "p3");
        for (List<Long> partitionSizes : sizes.values()) {
            List<Long> sorted = partitionSizes.stream().sorted().toList();
            for (long size : sorted.subList(1, sorted.size())) {
                assertThat(size).isBetween(TARGET / 2, TARGET * 3);
            }
        }
        Snapshot snapshot = table.currentSnapshot();
        assertThat(snapshot.operation()).isEqualTo(DataOperations.REPLACE);
        assertThat(result.snapshotId()).hasValue(snapshot.snapshotId());

        // Nothing left to compact: a second run changes nothing.
        RewriteDataFilesActionResult again =
                Actions.forTable(env(), table)
                        .rewriteDataFiles()
                        .targetSizeInBytes(TARGET)
                        .execute();
        assertThat(again.addedDataFiles()).isEmpty();
        assertThat(again.snapshotId()).isEmpty();
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot.snapshotId());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"PARQUET", "ORC", "AVRO"})
    void rewritingAv3TableKeepsEveryRowsLineage(FileFormat format) {
        Table table = MaintenanceTables.create(dir, "t", 3, format);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 2, 6, 25, 17L);
        List<Long> p1Ids =
                written.stream()
                        .filter(r -> r.getField("part").equals("p1"))
                        .map(r -> (Long) r.getField("id"))
                        .toList();
        long[] deleted = {p1Ids.get(2), p1Ids.get(30), p1Ids.get(149)};
        table.newRowDelta()
                .addDeletes(MaintenanceTables.writeIdDeletes(table, "p1", deleted))
                .commit();
        // Before: no file stores lineage; ids come from each file's first row id and the row
        // position, sequence numbers from each file's commit (one commit per file).
        Map<Long, List<Long>> before = lineageById(table);
        assertThat(before).hasSize(written.size() - deleted.length);
        assertThat(before.values().stream().map(l -> l.get(0)).distinct().count())
                .isEqualTo(before.size());
        assertThat(before.values().stream().map(l -> l.get(1)).distinct().count()).isEqualTo(12);
        long nextRowIdBefore = ((HasTableOperations) table).operations().current().nextRowId();

        RewriteDataFilesActionResult result =
                Actions.forTable(env(), table).rewriteDataFiles().execute();

        assertThat(result.deletedDataFilesCount()).isEqualTo(12);
        assertThat(lineageById(table)).isEqualTo(before);
        // The lineage is stored in the new files, not derived from their new first row ids.
        assertThat(((HasTableOperations) table).operations().current().nextRowId())
                .isGreaterThan(nextRowIdBefore);
        for (DataFile file : dataFiles(table)) {
            assertThat(file.firstRowId()).isGreaterThanOrEqualTo(nextRowIdBefore);
        }
    }

    /** {@code id -> [_row_id, _last_updated_sequence_number]}, read by Iceberg's generic reader. */
    private static Map<Long, List<Long>> lineageById(Table table) {
        table.refresh();
        Map<Long, List<Long>> lineage = new java.util.TreeMap<>();
        try (CloseableIterable<Record> records =
                IcebergGenerics.read(table)
                        .project(MetadataColumns.schemaWithRowLineage(table.schema()))
                        .build()) {
            for (Record record : records) {
                Long rowId = (Long) record.getField(MetadataColumns.ROW_ID.name());
                Long sequence =
                        (Long) record.getField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name());
                assertThat(rowId).as("_row_id of %s", record).isNotNull();
                assertThat(sequence).as("_last_updated_sequence_number of %s", record).isNotNull();
                Object previous =
                        lineage.put((Long) record.getField("id"), List.of(rowId, sequence));
                assertThat(previous).as("duplicate id in %s", record).isNull();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return lineage;
    }

    @Test
    void filteredRewriteTouchesOnlyTheMatchingPartitions() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 4, 6, 100, 11L);
        List<DataFile> before = dataFiles(table);

        RewriteDataFilesActionResult result =
                Actions.forTable(env(), table)
                        .rewriteDataFiles()
                        .filter(Expressions.equal("part", "p1"))
                        .execute();

        assertThat(rows(table)).isEqualTo(asStrings(written));
        assertThat(result.deletedDataFiles()).allMatch(file -> partitionOf(file).equals("p1"));
        assertThat(result.deletedDataFilesCount()).isEqualTo(6);
        assertThat(result.addedDataFiles()).hasSize(1);
        assertThat(partitionOf(result.addedDataFiles().get(0))).isEqualTo("p1");
        Set<String> untouched = new HashSet<>();
        before.stream()
                .filter(file -> !partitionOf(file).equals("p1"))
                .forEach(f -> untouched.add(f.location()));
        Set<String> afterOthers = new HashSet<>();
        dataFiles(table).stream()
                .filter(file -> !partitionOf(file).equals("p1"))
                .forEach(f -> afterOthers.add(f.location()));
        assertThat(afterOthers).isEqualTo(untouched);

        // A filter on a data column selects whole files: the residual is not applied, no row of
        // a selected file is lost.
        RewriteDataFilesActionResult byId =
                Actions.forTable(env(), table)
                        .rewriteDataFiles()
                        .filter(Expressions.lessThan("id", 50L))
                        .option("rewrite-all", "true")
                        .execute();
        assertThat(byId.deletedDataFiles()).hasSize(1);
        assertThat(byId.addedDataFiles()).hasSize(1);
        assertThat(byId.addedDataFiles().get(0).recordCount()).isEqualTo(100);
        assertThat(rows(table)).isEqualTo(asStrings(written));
    }

    @Test
    void positionAndEqualityDeletesAreAppliedWhileRewriting() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 2, 5, 50, 13L);
        DataFile p0First =
                dataFiles(table).stream()
                        .filter(file -> partitionOf(file).equals("p0"))
                        .filter(file -> file.recordCount() == 50)
                        .min((a, b) -> a.location().compareTo(b.location()))
                        .orElseThrow();
        List<Record> p0FirstRows =
                written.stream()
                        .filter(r -> r.getField("part").equals("p0"))
                        .filter(r -> isIn(table, p0First, (Long) r.getField("id")))
                        .toList();
        DeleteFile positions = MaintenanceTables.writePositionDeletes(table, p0First, 0, 5, 7);
        Set<Long> deletedIds = new HashSet<>();
        for (int pos : new int[] {0, 5, 7}) {
            deletedIds.add((Long) p0FirstRows.get(pos).getField("id"));
        }
        List<Long> p1Ids =
                written.stream()
                        .filter(r -> r.getField("part").equals("p1"))
                        .map(r -> (Long) r.getField("id"))
                        .toList();
        long[] eqIds = {p1Ids.get(3), p1Ids.get(77), p1Ids.get(200)};
        DeleteFile equality = MaintenanceTables.writeIdDeletes(table, "p1", eqIds);
        for (long id : eqIds) {
            deletedIds.add(id);
        }
        table.newRowDelta().addDeletes(positions).addDeletes(equality).commit();
        List<Record> expectedRecords =
                written.stream()
                        .filter(r -> !deletedIds.contains((Long) r.getField("id")))
                        .toList();
        List<String> expected = asStrings(expectedRecords);
        assertThat(rows(table)).isEqualTo(expected);

        RewriteDataFilesActionResult result =
                Actions.forTable(env(), table).rewriteDataFiles().execute();

        assertThat(rows(table)).isEqualTo(expected);
        // The deletes were applied physically: the new files hold exactly the surviving rows.
        assertThat(result.addedDataFiles().stream().mapToLong(DataFile::recordCount).sum())
                .isEqualTo(expected.size());
        // The file-scoped position deletes went with their data file; equality deletes stay but
        // no longer apply to the rewritten rows (they carry the starting sequence number).
        assertThat(locations(result.removedDeleteFiles())).containsExactly(positions.location());
        table.refresh();
        try (var tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> assertThat(task.deletes()).isEmpty());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void deletionVectorsOfAv3TableAreAppliedAndDroppedByTheRewrite() {
        Table table = MaintenanceTables.create(dir, "dv", 3, FileFormat.PARQUET);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 2, 5, 50, 29L);
        DataFile victim =
                dataFiles(table).stream()
                        .filter(file -> partitionOf(file).equals("p1"))
                        .min((a, b) -> a.location().compareTo(b.location()))
                        .orElseThrow();
        List<Record> victimRows =
                written.stream().filter(r -> isIn(table, victim, (Long) r.getField("id"))).toList();
        DeleteFile dv = MaintenanceTables.writeDeletionVector(table, victim, 1, 2, 30);
        assertThat(dv.format()).isEqualTo(FileFormat.PUFFIN);
        table.newRowDelta().addDeletes(dv).commit();
        Set<Long> deletedIds = new HashSet<>();
        for (int pos : new int[] {1, 2, 30}) {
            deletedIds.add((Long) victimRows.get(pos).getField("id"));
        }
        List<String> expected =
                asStrings(
                        written.stream()
                                .filter(r -> !deletedIds.contains((Long) r.getField("id")))
                                .toList());
        assertThat(rows(table)).isEqualTo(expected);

        RewriteDataFilesActionResult result =
                Actions.forTable(env(), table).rewriteDataFiles().execute();

        assertThat(rows(table)).isEqualTo(expected);
        assertThat(result.addedDataFiles().stream().mapToLong(DataFile::recordCount).sum())
                .as("the deleted rows were dropped physically")
                .isEqualTo(expected.size());
        assertThat(locations(result.removedDeleteFiles()))
                .as("the deletion vector went with its data file")
                .containsExactly(dv.location());
        table.refresh();
        try (var tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> assertThat(task.deletes()).isEmpty());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aConflictingDeleteFailsTheRewriteAndLeavesTheTableUnchanged() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 2, 5, 40, 17L);
        DataFile victim = dataFiles(table).get(0);
        Set<Path> filesBefore = files(dir.resolve("t/data"));
        List<Long> committedDelete = new ArrayList<>();

        RewriteDataFilesAction rewrite =
                Actions.forTable(env(), table)
                        .rewriteDataFiles()
                        .beforeCommit(
                                () -> {
                                    Table other =
                                            new org.apache.iceberg.hadoop.HadoopTables(
                                                            new org.apache.hadoop.conf
                                                                    .Configuration())
                                                    .load(table.location());
                                    other.newDelete().deleteFile(victim).commit();
                                    committedDelete.add(other.currentSnapshot().snapshotId());
                                });

        assertThatThrownBy(rewrite::execute)
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("table is unchanged")
                .hasMessageContaining("new files were deleted");

        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(committedDelete.get(0));
        assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.DELETE);
        List<String> expected =
                asStrings(
                        written.stream()
                                .filter(r -> !isIn(table, victim, (Long) r.getField("id")))
                                .toList());
        assertThat(rows(table)).isEqualTo(expected).hasSize(written.size() - 40);
        // No file the rewrite wrote is left behind.
        assertThat(files(dir.resolve("t/data"))).isEqualTo(filesBefore);
    }

    @Test
    void aStreamingAppendDuringTheRewriteLosesNoRow() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 4, 5, 40, 19L);
        // The stream below commits every 500 ms: give the rewrite's commit the retries a table
        // with such a writer needs (Iceberg's default of 4 ran out on a loaded machine). At one
        // commit every 100 ms the rewrite's commit, slower than the stream's, lost every race
        // now and then until the test timed out (optimistic commits on a file-system catalog).
        table.updateProperties().set(TableProperties.COMMIT_NUM_RETRIES, "20").commit();

        // An unbounded streaming job appends rows (STREAM_BASE + i, "s" + i, "p" + i % 4), a few
        // per checkpoint, through our IcebergSink into the same table.
        StreamExecutionEnvironment streamEnv = env();
        streamEnv.setParallelism(1);
        streamEnv.enableCheckpointing(500);
        GeneratorFunction<Long, RowData> generator =
                i ->
                        GenericRowData.of(
                                STREAM_BASE + i,
                                StringData.fromString("s" + i),
                                StringData.fromString("p" + (i % 4)));
        streamEnv
                .fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                Long.MAX_VALUE,
                                RateLimiterStrategy.perCheckpoint(10),
                                InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema()))),
                        WatermarkStrategy.noWatermarks(),
                        "stream")
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(TableLoader.fromHadoopTable(table.location()))
                                .build());
        JobClient stream = streamEnv.executeAsync("streaming append");
        try {
            awaitFlinkCommits(table, 1);

            // Between planning and commit the stream commits again: the rewrite must keep it.
            RewriteDataFilesActionResult result =
                    Actions.forTable(env(), table)
                            .rewriteDataFiles()
                            .beforeCommit(() -> awaitFlinkCommits(table, flinkCommits(table) + 1))
                            .execute();
            assertThat(result.deletedDataFiles()).isNotEmpty();
            long rewriteSnapshot = result.snapshotId().getAsLong();
            int commitsAtRewrite = flinkCommits(table);
            awaitFlinkCommits(table, commitsAtRewrite + 2);
            Jobs.cancelAndWait(stream);

            table.refresh();
            List<Snapshot> history = new ArrayList<>();
            table.snapshots().forEach(history::add);
            int rewriteIndex = -1;
            for (int i = 0; i < history.size(); i++) {
                if (history.get(i).snapshotId() == rewriteSnapshot) {
                    rewriteIndex = i;
                }
            }
            assertThat(history.get(rewriteIndex - 1).summary()).containsKey("flink.job-id");
            assertThat(history.get(rewriteIndex + 1).summary()).containsKey("flink.job-id");
            assertThat(history.get(rewriteIndex).operation()).isEqualTo(DataOperations.REPLACE);

            // The table holds the initial rows plus an unbroken prefix of the stream.
            List<String> rows = rows(table);
            long streamed =
                    rows.stream()
                            .filter(
                                    row ->
                                            Long.parseLong(row.substring(0, row.indexOf(':')))
                                                    >= STREAM_BASE)
                            .count();
            assertThat(streamed).isGreaterThanOrEqualTo(20);
            List<String> expected = new ArrayList<>(asStrings(written));
            for (long i = 0; i < streamed; i++) {
                expected.add((STREAM_BASE + i) + ":s" + i + ":p" + (i % 4));
            }
            expected.sort(null);
            assertThat(rows).isEqualTo(expected);
        } finally {
            Jobs.cancelAndWait(stream);
        }
    }

    /** Ids of streamed rows start here, far above the initial rows' ids. */
    private static final long STREAM_BASE = 9_000_000L;

    /** The number of snapshots a Flink job committed. */
    private static int flinkCommits(Table table) {
        Table fresh =
                new org.apache.iceberg.hadoop.HadoopTables(
                                new org.apache.hadoop.conf.Configuration())
                        .load(table.location());
        int count = 0;
        for (Snapshot snapshot : fresh.snapshots()) {
            if (snapshot.summary().containsKey("flink.job-id")) {
                count++;
            }
        }
        return count;
    }

    /** Waits (up to a minute) until Flink jobs committed at least {@code count} snapshots. */
    private static void awaitFlinkCommits(Table table, int count) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (flinkCommits(table) < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting for " + count + " Flink commits");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /** Whether {@code id} is a row of {@code file}, from the file's own rows. */
    private static boolean isIn(Table table, DataFile file, long id) {
        return MaintenanceTables.idsOf(table, file).contains(id);
    }

    /** The non-hidden files under {@code root}. */
    static Set<Path> files(Path root) throws java.io.IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .filter(path -> !path.getFileName().toString().startsWith("."))
                    .collect(Collectors.toSet());
        }
    }

    private static Set<String> locations(List<? extends org.apache.iceberg.ContentFile<?>> files) {
        Set<String> locations = new HashSet<>();
        files.forEach(file -> locations.add(file.location()));
        return locations;
    }
}
