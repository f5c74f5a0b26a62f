package dev.icebergflink.source;

import dev.icebergflink.TableLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Table;

/**
 * The job of the source's savepoint fixture, shared by its generator ({@link
 * SourceSavepointFixtureGeneratorITCase}) and the restore test ({@code
 * SourceSavepointCompatibilityITCase}): a continuous {@link IcebergSource} (parallelism 2, one data
 * file per split, uid {@link #SOURCE_UID}) reads the Hadoop table {@code <fixture>/tables/source}
 * ({@link SourceTestTables}' schema and rows); a map (uid {@link #MAP_UID}, throttled while the
 * fixture is generated) keeps the ids; an exactly-once {@link FileSink} (uid {@link #RECORDER_UID},
 * files finished at every checkpoint) records them, one per line, under {@code <fixture>/recorded}.
 *
 * <p>Change nothing here that changes the job's operators or their uids: the fixtures of earlier
 * releases must keep restoring into it.
 */
final class SourceSavepointFixtureJob {

    /** The fixture's name: its fixed directory and its folder under {@code savepoints/<line>}. */
    static final String NAME = "iceberg-source";

    /** The rows of the table when the fixture's job starts: three snapshots of four files. */
    static final int ROWS = 240;

    static final int ROWS_PER_FILE = 20;
    static final int ROWS_PER_SNAPSHOT = 80;
    static final String SOURCE_UID = "fixture-iceberg-source";
    static final String MAP_UID = "fixture-ids";
    static final String RECORDER_UID = "fixture-recorder";

    private SourceSavepointFixtureJob() {}

    static String tableLocation(Path fixtureDir) {
        return fixtureDir.resolve("tables").resolve("source").toString();
    }

    /** Creates the table and its {@link #ROWS} rows; the generator's first step. */
    static Table createTable(Path fixtureDir) {
        Table table = SourceTestTables.create(tableLocation(fixtureDir), 2);
        for (long from = 0; from < ROWS; from += ROWS_PER_SNAPSHOT) {
            SourceTestTables.appendFiles(table, from, from + ROWS_PER_SNAPSHOT, ROWS_PER_FILE);
        }
        return table;
    }

    static TableLoader loader(Path fixtureDir) {
        return TableLoader.fromHadoopTable(tableLocation(fixtureDir));
    }

    /** Adds the job to {@code env}; the map waits {@code perRecord} after each record. */
    static void pipeline(StreamExecutionEnvironment env, Path fixtureDir, Duration perRecord) {
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader(fixtureDir))
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .splitSize(1L)
                        .build();
        env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "iceberg-source",
                        source.getProducedType())
                .uid(SOURCE_UID)
                .map(new Ids(perRecord.toNanos()))
                .uid(MAP_UID)
                .name("ids")
                .sinkTo(
                        FileSink.forRowFormat(
                                        new org.apache.flink.core.fs.Path(
                                                recorded(fixtureDir).toUri()),
                                        new SimpleStringEncoder<String>())
                                .withBucketAssigner(new BasePathBucketAssigner<>())
                                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                                .build())
                .uid(RECORDER_UID)
                .name("recorder");
    }

    static Path recorded(Path fixtureDir) {
        return fixtureDir.resolve("recorded");
    }

    /**
     * The ids in the recorder's finished files. The recorder writes into one directory (its base
     * path bucket), where in-progress and pending files are hidden and come and go while the job
     * runs: their names are skipped before anything is asked of the file, so a file renamed away
     * between listing and reading cannot fail the poll. Finished files never move.
     */
    static List<Long> recordedIds(Path fixtureDir) {
        Path dir = recorded(fixtureDir);
        List<Long> ids = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return ids;
        }
        List<Path> finished;
        try (Stream<Path> entries = Files.list(dir)) {
            finished =
                    entries.filter(
                                    file -> {
                                        String name = file.getFileName().toString();
                                        return !name.startsWith(".") && !name.startsWith("_");
                                    })
                            .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            for (Path file : finished) {
                for (String line : Files.readAllLines(file)) {
                    if (!line.isBlank()) {
                        ids.add(Long.parseLong(line.trim()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ids.sort(null);
        return ids;
    }

    /** The id of each row, after an optional pause (to stop the fixture's job mid-way). */
    static final class Ids implements MapFunction<RowData, String> {
        private static final long serialVersionUID = 1L;
        private final long pauseNanos;

        Ids(long pauseNanos) {
            this.pauseNanos = pauseNanos;
        }

        @Override
        public String map(RowData row) {
            if (pauseNanos > 0) {
                LockSupport.parkNanos(pauseNanos);
            }
            return Long.toString(row.getLong(0));
        }
    }
}
