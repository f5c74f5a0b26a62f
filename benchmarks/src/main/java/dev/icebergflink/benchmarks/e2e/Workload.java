package dev.icebergflink.benchmarks.e2e;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.iceberg.FileFormat;

/**
 * Every end-to-end workload, in the order the suite runs them in each round: the generator, the
 * generic limits, then the connector's writes and reads, the reads of an upserted table before and
 * after its equality deletes are converted and the changelog read of its upserts, last the
 * streaming workloads (checkpoint every second). Each workload names the reference its rows/s are
 * compared with (a generic limit; the upsert compares with the Parquet append, as its target does,
 * and so do the dynamic sink's writes into many tables; a read after the conversion with the same
 * read before it) and its target ratio to that reference, if it has one.
 */
public enum Workload {
    GENERATOR("generator", Kind.GENERATOR, FileFormat.PARQUET, null, 0),
    LIMIT_WRITE_PARQUET("limit-write-parquet", Kind.LIMIT_WRITE, FileFormat.PARQUET, null, 0),
    LIMIT_WRITE_ORC("limit-write-orc", Kind.LIMIT_WRITE, FileFormat.ORC, null, 0),
    LIMIT_WRITE_AVRO("limit-write-avro", Kind.LIMIT_WRITE, FileFormat.AVRO, null, 0),
    /** The generic writer into the partitioned table of {@code append-partitioned}. */
    LIMIT_WRITE_PARTITIONED(
            "limit-write-partitioned", Kind.LIMIT_WRITE_PARTITIONED, FileFormat.PARQUET, null, 0),
    LIMIT_READ_PARQUET("limit-read-parquet", Kind.LIMIT_READ, FileFormat.PARQUET, null, 0),
    LIMIT_READ_ORC("limit-read-orc", Kind.LIMIT_READ, FileFormat.ORC, null, 0),
    LIMIT_READ_AVRO("limit-read-avro", Kind.LIMIT_READ, FileFormat.AVRO, null, 0),
    APPEND_PARQUET("append-parquet", Kind.APPEND, FileFormat.PARQUET, "limit-write-parquet", 0.85),
    APPEND_ORC("append-orc", Kind.APPEND, FileFormat.ORC, "limit-write-orc", 0.85),
    APPEND_AVRO("append-avro", Kind.APPEND, FileFormat.AVRO, "limit-write-avro", 0.85),
    APPEND_PARTITIONED(
            "append-partitioned",
            Kind.APPEND_PARTITIONED,
            FileFormat.PARQUET,
            "limit-write-partitioned",
            0.75),
    SQL_INSERT("sql-insert", Kind.SQL_INSERT, FileFormat.PARQUET, "limit-write-parquet", 0),
    UPSERT("upsert", Kind.UPSERT, FileFormat.PARQUET, "append-parquet", 0.5),
    /** The upsert with the promise of unique keys: no key shuffle, sort or de-duplication. */
    UPSERT_UNIQUE_KEYS("upsert-unique-keys", Kind.UPSERT, FileFormat.PARQUET, "append-parquet", 0),
    /**
     * One stream of the generated rows spread by {@code DynamicIcebergSink} over 10 unpartitioned
     * Parquet tables (the table is a bucket of the id), compared with the single-table Parquet
     * append of the same rows.
     */
    DYNAMIC_10_TABLES(
            "dynamic-10-tables",
            Kind.DYNAMIC_APPEND,
            FileFormat.PARQUET,
            "append-parquet",
            0,
            2,
            10),
    /** {@link #DYNAMIC_10_TABLES} over 100 tables. */
    DYNAMIC_100_TABLES(
            "dynamic-100-tables",
            Kind.DYNAMIC_APPEND,
            FileFormat.PARQUET,
            "append-parquet",
            0,
            2,
            100),
    SCAN_PARQUET("scan-parquet", Kind.SCAN, FileFormat.PARQUET, "limit-read-parquet", 0.9),
    SCAN_ORC("scan-orc", Kind.SCAN, FileFormat.ORC, "limit-read-orc", 0.9),
    SCAN_AVRO("scan-avro", Kind.SCAN, FileFormat.AVRO, "limit-read-avro", 0.9),
    SCAN_PROJECTED_FILTERED(
            "scan-projected-filtered",
            Kind.SCAN_PROJECTED_FILTERED,
            FileFormat.PARQUET,
            "limit-read-parquet",
            0),
    SQL_COUNT("sql-count", Kind.SQL_COUNT, FileFormat.PARQUET, "limit-read-parquet", 0),
    SQL_FILTER("sql-filter", Kind.SQL_FILTER, FileFormat.PARQUET, "limit-read-parquet", 0),
    /**
     * A full scan of a format v2 {@link UpsertedTable} with its equality deletes, compared with the
     * scan of a table of the same rows without deletes.
     */
    EQDELETE_SCAN_V2(
            "eqdelete-scan-v2", Kind.EQDELETE_SCAN, FileFormat.PARQUET, "scan-parquet", 0, 2),
    /**
     * The same scan after {@code RewriteEqualityDeletes} turned the equality deletes into position
     * deletes: its ratio is the after/before speed-up.
     */
    EQDELETE_REWRITTEN_SCAN_V2(
            "eqdelete-rewritten-scan-v2",
            Kind.EQDELETE_REWRITTEN_SCAN,
            FileFormat.PARQUET,
            "eqdelete-scan-v2",
            0,
            2),
    /** {@link #EQDELETE_SCAN_V2} on a format v3 table. */
    EQDELETE_SCAN_V3(
            "eqdelete-scan-v3", Kind.EQDELETE_SCAN, FileFormat.PARQUET, "scan-parquet", 0, 3),
    /** {@link #EQDELETE_REWRITTEN_SCAN_V2} on a format v3 table: deletion vectors after. */
    EQDELETE_REWRITTEN_SCAN_V3(
            "eqdelete-rewritten-scan-v3",
            Kind.EQDELETE_REWRITTEN_SCAN,
            FileFormat.PARQUET,
            "eqdelete-scan-v3",
            0,
            3),
    /**
     * A changelog read ({@code changelog-mode} = all) of the upsert commits of a format v2 {@link
     * UpsertedTable}: every rewritten key as {@code -U} and {@code +U}, compared with the
     * insert-only full scan of the same table.
     */
    CHANGELOG_READ_V2(
            "changelog-read-v2", Kind.CHANGELOG_READ, FileFormat.PARQUET, "eqdelete-scan-v2", 0, 2),
    /**
     * The generated rows appended by a streaming job with a checkpoint every second (each
     * checkpoint commits), compared with the batch append of the same rows.
     */
    STREAM_APPEND("stream-append", Kind.STREAM_APPEND, FileFormat.PARQUET, "append-parquet", 0),
    /**
     * A quarter of a table's keys upserted by a streaming job with a checkpoint every second (an
     * equality delete per row), compared with the batch upsert; the result also carries the rate of
     * a full scan of the upserted table before and after {@code RewriteEqualityDeletes}.
     */
    STREAM_UPSERT("stream-upsert", Kind.STREAM_UPSERT, FileFormat.PARQUET, "upsert", 0),
    /**
     * A throttled streaming append read back by a streaming read of the same table in the same JVM:
     * the time from each commit to its rows arriving in the reader.
     */
    STREAM_FRESHNESS("stream-freshness", Kind.STREAM_FRESHNESS, FileFormat.PARQUET, null, 0);

    /** What a workload does, which decides how it is prepared, run and checked. */
    public enum Kind {
        GENERATOR,
        LIMIT_WRITE,
        LIMIT_WRITE_PARTITIONED,
        LIMIT_READ,
        APPEND,
        APPEND_PARTITIONED,
        SQL_INSERT,
        UPSERT,
        /**
         * One stream appended through {@code DynamicIcebergSink} into {@link Workload#tables()}
         * tables, each row into the table its id routes to ({@link DynamicRouting}).
         */
        DYNAMIC_APPEND,
        SCAN,
        SCAN_PROJECTED_FILTERED,
        SQL_COUNT,
        SQL_FILTER,
        /** A full scan of an upserted table with live equality deletes. */
        EQDELETE_SCAN,
        /** The same table converted by {@code RewriteEqualityDeletes} (untimed), then scanned. */
        EQDELETE_REWRITTEN_SCAN,
        /** The changes of an upserted table's upsert commits, read as a changelog. */
        CHANGELOG_READ,
        /** The generator into the sink in streaming mode with a checkpoint every second. */
        STREAM_APPEND,
        /**
         * The upsert in streaming mode with a checkpoint every second, then scans of its result.
         */
        STREAM_UPSERT,
        /** A throttled streaming append and a streaming read of the same table. */
        STREAM_FRESHNESS;

        /** Whether the workload's job runs in streaming mode with checkpoints. */
        public boolean streaming() {
            return this == STREAM_APPEND || this == STREAM_UPSERT || this == STREAM_FRESHNESS;
        }

        /** Whether the workload reads a prepared source table (rather than writing one). */
        public boolean reads() {
            return this == LIMIT_READ
                    || this == SCAN
                    || this == SCAN_PROJECTED_FILTERED
                    || this == SQL_COUNT
                    || this == SQL_FILTER
                    || this == EQDELETE_SCAN
                    || this == EQDELETE_REWRITTEN_SCAN
                    || this == CHANGELOG_READ;
        }

        /** Whether the workload writes a table partitioned by category. */
        public boolean partitioned() {
            return this == LIMIT_WRITE_PARTITIONED || this == APPEND_PARTITIONED;
        }
    }

    private final String id;
    private final Kind kind;
    private final FileFormat format;
    private final String reference;
    private final double target;
    private final int formatVersion;
    private final int tables;

    Workload(String id, Kind kind, FileFormat format, String reference, double target) {
        this(id, kind, format, reference, target, 2);
    }

    Workload(
            String id,
            Kind kind,
            FileFormat format,
            String reference,
            double target,
            int formatVersion) {
        this(id, kind, format, reference, target, formatVersion, 1);
    }

    Workload(
            String id,
            Kind kind,
            FileFormat format,
            String reference,
            double target,
            int formatVersion,
            int tables) {
        this.id = id;
        this.kind = kind;
        this.format = format;
        this.reference = reference;
        this.target = target;
        this.formatVersion = formatVersion;
        this.tables = tables;
    }

    /** The name in result lines, on the command line and in the docs. */
    public String id() {
        return id;
    }

    public Kind kind() {
        return kind;
    }

    /** The file format the workload writes or reads. */
    public FileFormat format() {
        return format;
    }

    /** The workload whose rows/s this one's ratio divides by, or null for the limits. */
    public String reference() {
        return reference;
    }

    /** The target ratio to the reference, or 0 when the workload has no target. */
    public double target() {
        return target;
    }

    /**
     * The Iceberg format version of the table the workload's own table is created with (the {@code
     * eqdelete-*} workloads; the others create v2 tables).
     */
    public int formatVersion() {
        return formatVersion;
    }

    /**
     * How many tables the workload writes: the dynamic sink's tables for {@link
     * Kind#DYNAMIC_APPEND}, 1 for every other workload.
     */
    public int tables() {
        return tables;
    }

    /** The prefix of the id of a workload's run through Iceberg's own Flink connector. */
    public static final String CONNECTOR_REFERENCE_PREFIX = "reference-";

    /**
     * Whether the workload also runs through Apache Iceberg's own Flink connector, through its
     * public API (the launcher in the {@code benchmarks-reference} module): the appends, the SQL
     * insert, the upsert (without the unique-keys promise, which Iceberg's sink does not offer),
     * the scans, the SQL count and filter and the streaming workloads. The limits measure no
     * connector, and the dynamic sink's, equality-delete and changelog workloads use parts that
     * have no counterpart there to compare like with like.
     */
    public boolean hasConnectorReference() {
        switch (kind) {
            case APPEND:
            case APPEND_PARTITIONED:
            case SQL_INSERT:
            case SCAN:
            case SCAN_PROJECTED_FILTERED:
            case SQL_COUNT:
            case SQL_FILTER:
            case STREAM_APPEND:
            case STREAM_UPSERT:
            case STREAM_FRESHNESS:
                return true;
            case UPSERT:
                return this == UPSERT;
            default:
                return false;
        }
    }

    /** The id of the workload's run through Iceberg's connector: {@code reference-<id>}. */
    public String connectorReferenceId() {
        return CONNECTOR_REFERENCE_PREFIX + id;
    }

    /** The workloads that also run through Iceberg's connector, in the suite's order. */
    public static List<Workload> withConnectorReference() {
        return Arrays.stream(values())
                .filter(Workload::hasConnectorReference)
                .collect(Collectors.toList());
    }

    /** The workload named {@code id}. */
    public static Workload byId(String id) {
        for (Workload workload : values()) {
            if (workload.id.equals(id.trim().toLowerCase(Locale.ROOT))) {
                return workload;
            }
        }
        throw new IllegalArgumentException(
                "Unknown workload '" + id + "'; known workloads: " + ids(Arrays.asList(values())));
    }

    /** The workloads of a comma-separated list of ids ({@code all} for every workload). */
    public static List<Workload> parseList(String ids) {
        if (ids == null || ids.isBlank() || ids.trim().equals("all")) {
            return Arrays.asList(values());
        }
        List<Workload> chosen =
                Arrays.stream(ids.split(",")).map(Workload::byId).collect(Collectors.toList());
        // run in the suite's order whatever the order given
        return Arrays.stream(values()).filter(chosen::contains).collect(Collectors.toList());
    }

    static String ids(List<Workload> workloads) {
        return workloads.stream().map(Workload::id).collect(Collectors.joining(", "));
    }
}
