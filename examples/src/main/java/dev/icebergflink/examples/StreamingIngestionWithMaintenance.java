package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.ExpireSnapshots;
import dev.icebergflink.maintenance.api.JdbcLockFactory;
import dev.icebergflink.maintenance.api.MaintenanceOptions;
import dev.icebergflink.maintenance.api.RewriteDataFiles;
import dev.icebergflink.maintenance.api.TableMaintenance;
import dev.icebergflink.sink.IcebergSink;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.TimeUtils;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Streaming ingestion that keeps its table healthy: the generated shop events of {@link
 * StreamingIngestion} go into a table through {@link IcebergSink}, one commit per checkpoint, and
 * table maintenance in the same job compacts the small files those commits leave (one per partition
 * and writer subtask per checkpoint) and expires the snapshots they pile up. Without it a table
 * written every few seconds slows down every read and grows its metadata without end.
 *
 * <p>It shows the two ways to run maintenance, chosen with {@code --maintenance}:
 *
 * <ul>
 *   <li>{@code sink} (default): maintenance after the sink's commits, switched on in the sink's
 *       builder ({@code IcebergSink.forRowData()...rewriteDataFiles(Map.of(...))
 *       .expireSnapshots(Map.of(...))}, the {@code flink-maintenance.*} settings of {@link
 *       MaintenanceOptions}; in SQL the same keys are table options or hints). One {@code sinkTo}
 *       gives writer and maintenance; maintenance is fed by the sink's own commits instead of
 *       watching the table, and lives and dies with the sink: when a bounded input ends, the job
 *       ends after its last commit, maintenance with it. The maintenance operators get uids only
 *       when the sink has a uid suffix ({@code uidSuffix}), as here.
 *   <li>{@code topology}: a {@link TableMaintenance#forTable} topology next to a plain sink. It
 *       watches the table's snapshots (one look per rate limit), so it maintains the table whoever
 *       writes to it: other jobs, SQL, other engines. The same lines in a job without a sink are
 *       the usual deployment, a maintenance job of its own, which restarts, scales and upgrades
 *       apart from the writers. Its watching source never ends, so this job keeps running after
 *       {@code --events} are written, until it is stopped or cancelled.
 * </ul>
 *
 * <p>Either way one maintenance task runs at a time, under a lock, and at most one run starts per
 * {@code --rate-limit}. The lock is by default the job's own, held in its JobManager: enough while
 * this job is the only one that maintains the table. When several jobs do (a writer with
 * maintenance after its commits and a separate maintenance job, or two writers), give each the same
 * shared lock, {@link JdbcLockFactory} ({@code --lock-jdbc-uri}; the sink's {@code
 * flink-maintenance.lock.*} settings): here both modes use the table identifier as the lock id.
 * Compactions do not count as commits for the triggers, and expiration never removes the newest
 * snapshot a Flink writer committed, which a restarted writer reads its last checkpoint from.
 *
 * <p>Arguments (besides the catalog keys of {@link ExampleArguments}):
 *
 * <ul>
 *   <li>{@code --table <db>.<name>} (default {@code examples.maintained_events}); created when
 *       missing;
 *   <li>{@code --maintenance sink|topology} (default {@code sink}), see above;
 *   <li>{@code --events N}: stop writing after N events (default: run until cancelled);
 *   <li>{@code --events-per-second R}: throttle the generator (default 1000; 0 means as fast as
 *       possible);
 *   <li>{@code --checkpoint-interval D}: how often a snapshot is committed (default {@code 10s});
 *   <li>{@code --compact-after-commits N} (default 10) and {@code --compact-interval D} (default
 *       {@code 10min}): compact after N commits, or when D has passed since the last compaction; a
 *       partition is compacted when it has two or more small files;
 *   <li>{@code --expire-after-commits N} (default 10): expire snapshots after N commits (and at
 *       least hourly), keeping the last {@code --retain-last K} (default 10) and every snapshot
 *       younger than {@code --max-snapshot-age D} (default {@code 1h});
 *   <li>{@code --rate-limit D}: the least time between two maintenance runs (default {@code 1min};
 *       whole seconds);
 *   <li>{@code --lock-jdbc-uri <jdbc url>}: a lock in that database shared by every job that
 *       maintains the table (default: the job's own lock); its driver must be on the class path.
 * </ul>
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main} with e.g. {@code --events 20000 --events-per-second 500
 *       --checkpoint-interval 1s --compact-after-commits 5 --rate-limit 2s} (a local MiniCluster,
 *       table under {@code ./warehouse});
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=StreamingIngestionWithMaintenance
 *       -Dexample.args="--events 20000 --checkpoint-interval 1s --rate-limit 2s" -DskipTests
 *       package} (see {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.StreamingIngestionWithMaintenance examples.jar --warehouse
 *       hdfs://namenode:8020/warehouse --maintenance topology}.
 * </ul>
 */
public final class StreamingIngestionWithMaintenance {

    static final String DEFAULT_TABLE = "examples.maintained_events";

    /** How often snapshots are expired at least, in both modes (the sink's default too). */
    static final Duration EXPIRE_INTERVAL = Duration.ofHours(1);

    /**
     * A partition is compacted once it has this many small files: after every commit each partition
     * the commit touched has one more, so waiting for Iceberg's default of five would leave the
     * files of the last few commits alone.
     */
    static final int MIN_INPUT_FILES = 2;

    private static final String NAME = "StreamingIngestionWithMaintenance";

    /** Where the maintenance runs. */
    enum Mode {
        /** After the sink's commits, switched on in the sink's builder. */
        SINK,
        /** In a {@link TableMaintenance} topology that watches the table. */
        TOPOLOGY
    }

    private StreamingIngestionWithMaintenance() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /**
     * Runs the job: to its end in {@code sink} mode with {@code --events}, otherwise until it is
     * stopped (with a savepoint, then the table's state is printed) or cancelled.
     */
    static void run(String[] args, PrintStream out) throws Exception {
        ExampleArguments arguments =
                ExampleArguments.parse(
                        NAME,
                        args,
                        "maintenance",
                        "events",
                        "events-per-second",
                        "checkpoint-interval",
                        "compact-after-commits",
                        "compact-interval",
                        "expire-after-commits",
                        "retain-last",
                        "max-snapshot-age",
                        "rate-limit",
                        "lock-jdbc-uri");
        Mode mode = mode(arguments);
        long events = arguments.getLong("events", Long.MAX_VALUE);
        long perSecond = arguments.getLong("events-per-second", 1_000);
        if (events < 0 || perSecond < 0) {
            throw new IllegalArgumentException(
                    NAME
                            + ": '--events' and '--events-per-second' must not be negative, but"
                            + " were "
                            + events
                            + " and "
                            + perSecond);
        }
        Duration checkpointInterval =
                arguments.getDuration("checkpoint-interval", Duration.ofSeconds(10));
        int compactAfterCommits = arguments.getPositiveInt("compact-after-commits", 10);
        Duration compactInterval =
                wholeSeconds(arguments, "compact-interval", Duration.ofMinutes(10), 1);
        int expireAfterCommits = arguments.getPositiveInt("expire-after-commits", 10);
        int retainLast = arguments.getPositiveInt("retain-last", 10);
        Duration maxSnapshotAge =
                wholeSeconds(arguments, "max-snapshot-age", Duration.ofHours(1), 0);
        Duration rateLimit = wholeSeconds(arguments, "rate-limit", Duration.ofMinutes(1), 1);
        String lockUri = arguments.get("lock-jdbc-uri").orElse(null);

        TableIdentifier identifier = arguments.table(DEFAULT_TABLE);
        CatalogLoader catalogLoader = arguments.catalogLoader();
        boolean created = ExampleTables.createEventsTableIfMissing(catalogLoader, identifier);
        out.printf(
                "%s table %s in catalog %s%n",
                created ? "Created" : "Writing to existing", identifier, catalogLoader.name());
        // The lock id every job maintaining this table uses, whatever its mode.
        String lockId = identifier.toString();
        // Stable operator uids, so that a savepoint of this job maps to the next version of it.
        String uidSuffix = identifier.toString();

        StreamExecutionEnvironment env = arguments.environment();
        env.enableCheckpointing(checkpointInterval.toMillis());
        DataGeneratorSource<RowData> generator =
                new DataGeneratorSource<>(
                        new GeneratedEvents(),
                        events,
                        perSecond == 0
                                ? RateLimiterStrategy.noOp()
                                : RateLimiterStrategy.perSecond(perSecond),
                        TypeInformation.of(RowData.class));
        IcebergSink.Builder sink =
                IcebergSink.forRowData()
                        .tableLoader(TableLoader.fromCatalog(catalogLoader, identifier))
                        .uidSuffix(uidSuffix);

        if (mode == Mode.SINK) {
            // The task settings are flink-maintenance.rewrite.* and .expire-snapshots.*, given
            // here without their prefix; the topology's own settings need the full key.
            sink.rewriteDataFiles(
                            Map.of(
                                    "schedule.commit-count",
                                    String.valueOf(compactAfterCommits),
                                    "schedule.interval-second",
                                    String.valueOf(compactInterval.toSeconds()),
                                    "min-input-files",
                                    String.valueOf(MIN_INPUT_FILES)))
                    .expireSnapshots(
                            Map.of(
                                    "schedule.commit-count",
                                    String.valueOf(expireAfterCommits),
                                    "schedule.interval-second",
                                    String.valueOf(EXPIRE_INTERVAL.toSeconds()),
                                    "retain-last",
                                    String.valueOf(retainLast),
                                    "max-snapshot-age-seconds",
                                    String.valueOf(maxSnapshotAge.toSeconds())))
                    .set(
                            MaintenanceOptions.RATE_LIMIT_SECONDS.key(),
                            String.valueOf(rateLimit.toSeconds()));
            if (lockUri != null) {
                sink.set(MaintenanceOptions.LOCK_TYPE.key(), "jdbc")
                        .set(MaintenanceOptions.LOCK_JDBC_URI.key(), lockUri)
                        .set(MaintenanceOptions.LOCK_ID.key(), lockId);
            }
        }
        env.fromSource(generator, WatermarkStrategy.noWatermarks(), "generated events")
                .uid("generated-events")
                .sinkTo(sink.build())
                .name("iceberg sink " + identifier);

        if (mode == Mode.TOPOLOGY) {
            // Without a lock factory the lock is the job's own.
            TableMaintenance.forTable(
                            env,
                            TableLoader.fromCatalog(catalogLoader, identifier),
                            lockUri == null ? null : new JdbcLockFactory(lockUri, lockId, Map.of()))
                    .uidSuffix(uidSuffix)
                    .rateLimit(rateLimit)
                    .add(
                            RewriteDataFiles.builder()
                                    .scheduleOnCommitCount(compactAfterCommits)
                                    .scheduleOnInterval(compactInterval)
                                    .minInputFiles(MIN_INPUT_FILES))
                    .add(
                            ExpireSnapshots.builder()
                                    .scheduleOnCommitCount(expireAfterCommits)
                                    .scheduleOnInterval(EXPIRE_INTERVAL)
                                    .retainLast(retainLast)
                                    .maxSnapshotAge(maxSnapshotAge))
                    .append();
        }

        out.printf(
                "%s: compaction after %d commits or every %s; snapshot expiration after %d"
                        + " commits, keeping the last %d and those younger than %s; at most one"
                        + " run per %s; lock: %s%n",
                mode == Mode.SINK
                        ? "Maintenance after the sink's commits"
                        : "Maintenance topology watching the table",
                compactAfterCommits,
                TimeUtils.formatWithHighestUnit(compactInterval),
                expireAfterCommits,
                retainLast,
                TimeUtils.formatWithHighestUnit(maxSnapshotAge),
                TimeUtils.formatWithHighestUnit(rateLimit),
                lockUri == null ? "the job's own" : "JDBC lock '" + lockId + "' shared by jobs");
        out.printf(
                "Streaming %s events (%s per second) with a checkpoint every %s%n",
                events == Long.MAX_VALUE ? "unbounded" : String.valueOf(events),
                perSecond == 0 ? "unthrottled" : String.valueOf(perSecond),
                TimeUtils.formatWithHighestUnit(checkpointInterval));
        env.execute(NAME + " into " + identifier);

        try (TableLoader loader = TableLoader.fromCatalog(catalogLoader, identifier)) {
            Table table = loader.loadTable();
            Snapshot current = table.currentSnapshot();
            out.printf(
                    "Done: %s holds %d rows in %d data files, %d snapshots (%d of them"
                            + " compactions); current snapshot %s (%s)%n",
                    identifier,
                    ExampleTables.rowCount(table),
                    ExampleTables.dataFileCount(table),
                    ExampleTables.snapshotCount(table),
                    compactions(table),
                    current == null ? "none" : current.snapshotId(),
                    current == null ? "none" : current.operation());
        }
    }

    private static Mode mode(ExampleArguments arguments) {
        String value = arguments.get("maintenance", "sink");
        try {
            return Mode.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "%s: argument '--maintenance' must be sink or topology, but was '%s'",
                            NAME, value));
        }
    }

    /**
     * A duration argument of whole seconds, at least {@code minSeconds}: the sink's maintenance
     * settings count in seconds, and both modes take the same arguments.
     */
    private static Duration wholeSeconds(
            ExampleArguments arguments, String key, Duration defaultValue, long minSeconds) {
        Duration value = arguments.getDuration(key, defaultValue);
        if (value.toMillis() % 1000 != 0 || value.toSeconds() < minSeconds) {
            throw new IllegalArgumentException(
                    String.format(
                            "%s: argument '--%s' must be whole seconds, at least %ds, but was %s",
                            NAME, key, minSeconds, arguments.get(key).orElse("")));
        }
        return value;
    }

    /** The compactions among the snapshots the table still keeps. */
    private static long compactions(Table table) {
        long count = 0;
        for (Snapshot snapshot : table.snapshots()) {
            if (DataOperations.REPLACE.equals(snapshot.operation())) {
                count++;
            }
        }
        return count;
    }
}
