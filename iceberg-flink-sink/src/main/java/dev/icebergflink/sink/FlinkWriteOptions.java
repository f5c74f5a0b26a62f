package dev.icebergflink.sink;

import dev.icebergflink.options.ConnectorOption;
import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.iceberg.TableProperties;

/**
 * The write options of the Iceberg sink, with the names and meanings of Iceberg's own connector,
 * usable as builder {@code set(key, value)} calls, SQL hints and {@code WITH} options.
 *
 * <p>It exists so that every write option has one described definition with its Flink configuration
 * key and table-property fallback; {@link FlinkWriteConf} resolves them in the order option, Flink
 * configuration, table property, default. Options marked "option-only" ({@link #BRANCH}, {@link
 * #WRITE_PARALLELISM}) are never read from the Flink configuration. The other options may also be
 * set job-wide in the Flink configuration under the same key.
 *
 * <p>The compression options fall back to the table property of the file format being written
 * ({@code write.parquet.compression-codec}, {@code write.orc.compression-codec}, {@code
 * write.avro.compression-codec}, ...); {@link #compressionCodecFor}, {@link #compressionLevelFor}
 * give the option bound to the right property.
 */
@PublicEvolving
public final class FlinkWriteOptions {

    private FlinkWriteOptions() {}

    /** The row group size of upsert and changelog data files when nothing else sets it. */
    static final long DEFAULT_UPSERT_ROW_GROUP_SIZE_BYTES = 16L << 20;

    /** The row group size of delete files when nothing else sets it. */
    static final long DEFAULT_DELETE_ROW_GROUP_SIZE_BYTES = 4L << 20;

    /** File format of data and delete files. */
    public static final ConnectorOption<String> WRITE_FORMAT =
            ConnectorOption.builder(
                            ConfigOptions.key("write-format")
                                    .stringType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "File format of the data and delete files written:"
                                                    + " parquet, orc or avro (case-insensitive)."
                                                    + " Falls back to the table property"
                                                    + " 'write.format.default', else parquet."),
                            String.class)
                    .flinkConfigKey("write-format")
                    .tableProperty(TableProperties.DEFAULT_FILE_FORMAT)
                    .build();

    /** Size at which a data or delete file is closed and a new one started. */
    public static final ConnectorOption<Long> TARGET_FILE_SIZE_BYTES =
            ConnectorOption.builder(
                            ConfigOptions.key("target-file-size-bytes")
                                    .longType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Target size of the files written, in bytes: a file"
                                                    + " that reaches it is closed and a new one"
                                                    + " started. Falls back to the table property"
                                                    + " 'write.target-file-size-bytes', else"
                                                    + " 536870912 (512 MB)."),
                            Long.class)
                    .flinkConfigKey("target-file-size-bytes")
                    .tableProperty(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES)
                    .build();

    /**
     * Compression codec of the written files; the table property depends on the format, see {@link
     * #compressionCodecFor}.
     */
    public static final ConnectorOption<String> COMPRESSION_CODEC =
            ConnectorOption.builder(
                            ConfigOptions.key("compression-codec")
                                    .stringType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Compression codec of the written files, e.g. zstd,"
                                                    + " snappy, gzip, lz4, none (the values the"
                                                    + " file format supports). Falls back to the"
                                                    + " table property"
                                                    + " 'write.<format>.compression-codec', else"
                                                    + " the table's default."),
                            String.class)
                    .flinkConfigKey("compression-codec")
                    .build();

    /** Compression level for Parquet and Avro files; see {@link #compressionLevelFor}. */
    public static final ConnectorOption<String> COMPRESSION_LEVEL =
            ConnectorOption.builder(
                            ConfigOptions.key("compression-level")
                                    .stringType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Compression level of Parquet and Avro files (codec"
                                                    + " dependent). Falls back to the table"
                                                    + " property 'write.parquet.compression-level'"
                                                    + " or 'write.avro.compression-level'; none"
                                                    + " by default."),
                            String.class)
                    .flinkConfigKey("compression-level")
                    .build();

    /** ORC compression strategy. */
    public static final ConnectorOption<String> COMPRESSION_STRATEGY =
            ConnectorOption.builder(
                            ConfigOptions.key("compression-strategy")
                                    .stringType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Compression strategy of ORC files: speed or"
                                                    + " compression. Falls back to the table"
                                                    + " property 'write.orc.compression-strategy',"
                                                    + " else speed."),
                            String.class)
                    .flinkConfigKey("compression-strategy")
                    .tableProperty(TableProperties.ORC_COMPRESSION_STRATEGY)
                    .build();

    /** Whether INSERT and UPDATE_AFTER rows replace the row of their key. */
    public static final ConnectorOption<Boolean> UPSERT_ENABLED =
            ConnectorOption.builder(
                            ConfigOptions.key("upsert-enabled")
                                    .booleanType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Upsert mode: INSERT and UPDATE_AFTER rows replace the"
                                                    + " row with the same equality key, DELETE rows"
                                                    + " remove it, UPDATE_BEFORE rows are ignored."
                                                    + " Needs equality fields and a format v2+"
                                                    + " table; not allowed with overwrite. Falls"
                                                    + " back to the table property"
                                                    + " 'write.upsert.enabled', else false."),
                            Boolean.class)
                    .flinkConfigKey("upsert-enabled")
                    .tableProperty(TableProperties.UPSERT_ENABLED)
                    .build();

    /** Memory per writer subtask for the keys of a batch upsert before they spill to disk. */
    public static final ConnectorOption<MemorySize> UPSERT_KEY_MEMORY =
            ConnectorOption.builder(
                            ConfigOptions.key("upsert-key-memory")
                                    .memoryType()
                                    .defaultValue(MemorySize.ofMebiBytes(16))
                                    .withDescription(
                                            "Batch execution, upsert mode and keyed changelogs:"
                                                    + " memory per writer subtask for the keys of"
                                                    + " the changes written (the key's bytes and"
                                                    + " about 28 bytes per change; 16 MB hold about"
                                                    + " 450,000 changes of a BIGINT key). The writers"
                                                    + " write every change as it comes and delete,"
                                                    + " by position, each row that a later change"
                                                    + " of its key replaced; keys beyond this"
                                                    + " memory are sorted and spilled to"
                                                    + " 'upsert-spill-directory', and merged at"
                                                    + " the end of the input, which costs a write"
                                                    + " and a read of the spilled keys and no"
                                                    + " more. At least 1 kb."),
                            MemorySize.class)
                    .flinkConfigKey("upsert-key-memory")
                    .build();

    /**
     * Row group size of the Parquet data files that upsert and changelog writers write: the most of
     * a data file a writer holds in memory before it writes it out.
     */
    public static final ConnectorOption<Long> UPSERT_ROW_GROUP_SIZE_BYTES =
            ConnectorOption.builder(
                            ConfigOptions.key("upsert-row-group-size-bytes")
                                    .longType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Upsert mode and keyed changelogs (batch and"
                                                    + " streaming): row group size of the Parquet"
                                                    + " data files written, in bytes. A Parquet"
                                                    + " writer holds a whole row group in memory"
                                                    + " until it is complete, and such writers"
                                                    + " hold a data file, delete files and their"
                                                    + " keys at once, so they write smaller row"
                                                    + " groups than appends. Falls back to the"
                                                    + " table property"
                                                    + " 'write.parquet.row-group-size-bytes' (a"
                                                    + " table that sets it keeps its size), else"
                                                    + " "
                                                    + DEFAULT_UPSERT_ROW_GROUP_SIZE_BYTES
                                                    + " (16 MB). Appends always use the table's"
                                                    + " row group size (default 128 MB)."),
                            Long.class)
                    .flinkConfigKey("upsert-row-group-size-bytes")
                    .tableProperty(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES)
                    .build();

    /**
     * Row group size of the Parquet equality and position delete files: the most of a delete file a
     * writer holds in memory before it writes it out.
     */
    public static final ConnectorOption<Long> DELETE_ROW_GROUP_SIZE_BYTES =
            ConnectorOption.builder(
                            ConfigOptions.key("delete-row-group-size-bytes")
                                    .longType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Row group size of the Parquet equality and"
                                                    + " position delete files written, in bytes."
                                                    + " Delete files hold only keys or positions,"
                                                    + " so small row groups cost readers nothing"
                                                    + " while every open delete writer holds its"
                                                    + " row group in memory. Falls back to the"
                                                    + " table property"
                                                    + " 'write.delete.parquet.row-group-size-bytes',"
                                                    + " else "
                                                    + DEFAULT_DELETE_ROW_GROUP_SIZE_BYTES
                                                    + " (4 MB); unlike Iceberg's writers, the"
                                                    + " data files' row group size is not used"
                                                    + " for delete files."),
                            Long.class)
                    .flinkConfigKey("delete-row-group-size-bytes")
                    .tableProperty(TableProperties.DELETE_PARQUET_ROW_GROUP_SIZE_BYTES)
                    .build();

    /** Where batch upsert keys spill to. */
    public static final ConnectorOption<String> UPSERT_SPILL_DIRECTORY =
            ConnectorOption.builder(
                            ConfigOptions.key("upsert-spill-directory")
                                    .stringType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Batch execution, upsert mode and keyed changelogs: a"
                                                    + " local directory of every TaskManager into"
                                                    + " which the writers spill the keys that do"
                                                    + " not fit 'upsert-key-memory'; created when"
                                                    + " missing, and the spill files are removed"
                                                    + " when a writer completes or fails. By"
                                                    + " default one of the TaskManager's"
                                                    + " temporary directories (Flink's"
                                                    + " 'io.tmp.dirs', where Flink spills its own"
                                                    + " sort data; subtasks take them in"
                                                    + " turn)."),
                            String.class)
                    .flinkConfigKey("upsert-spill-directory")
                    .build();

    /**
     * Whether the upsert input promises at most one change per equality key, which lets the sink
     * skip its keyed de-duplication.
     */
    public static final ConnectorOption<Boolean> UPSERT_UNIQUE_KEYS =
            ConnectorOption.builder(
                            ConfigOptions.key("upsert-unique-keys")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withDescription(
                                            "Upsert mode only: a promise that the whole input"
                                                    + " holds at most one INSERT, UPDATE_AFTER or"
                                                    + " DELETE row per equality key (UPDATE_BEFORE"
                                                    + " rows do not count; upsert mode ignores"
                                                    + " them), e.g. a bounded batch of distinct"
                                                    + " keys. The sink then skips its keyed"
                                                    + " de-duplication: no shuffle by key (unless"
                                                    + " 'distribution-mode' asks for one) and, in"
                                                    + " batch execution, no sort by key, so rows"
                                                    + " go straight to the writers. The promise is"
                                                    + " not checked: if a key comes twice within"
                                                    + " one checkpoint (or one batch job), both"
                                                    + " rows stay in the table. Option-only: never"
                                                    + " read from the Flink configuration or a"
                                                    + " table property."),
                            Boolean.class)
                    .build();

    /** Whether each commit replaces the partitions it writes to. */
    public static final ConnectorOption<Boolean> OVERWRITE_ENABLED =
            ConnectorOption.builder(
                            ConfigOptions.key("overwrite-enabled")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withDescription(
                                            "Overwrite mode: each commit replaces the partitions"
                                                    + " its rows fall into (the whole table when it"
                                                    + " is unpartitioned) instead of appending."),
                            Boolean.class)
                    .flinkConfigKey("overwrite-enabled")
                    .build();

    /**
     * {@link #OVERWRITE_ENABLED} under the Java name of Iceberg's connector and the user
     * documentation ({@code builder.set(FlinkWriteOptions.OVERWRITE_MODE, "true")}): the same
     * option, key {@code overwrite-enabled}, values {@code true} and {@code false}.
     */
    public static final ConnectorOption<Boolean> OVERWRITE_MODE = OVERWRITE_ENABLED;

    /** How rows are distributed to the writer subtasks. */
    public static final ConnectorOption<String> DISTRIBUTION_MODE =
            ConnectorOption.builder(
                            ConfigOptions.key("distribution-mode")
                                    .stringType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "How rows reach the writers: 'none' (no shuffle, or by"
                                                    + " equality key when there is one), 'hash' (by"
                                                    + " partition; by equality key for unpartitioned"
                                                    + " tables) or 'range' (by sort key ranges"
                                                    + " of the table's sort order, else of its"
                                                    + " partition fields, with boundaries from key"
                                                    + " statistics; for skewed keys)."
                                                    + " Falls back to the table property"
                                                    + " 'write.distribution-mode', else none."),
                            String.class)
                    .flinkConfigKey("distribution-mode")
                    .tableProperty(TableProperties.WRITE_DISTRIBUTION_MODE)
                    .build();

    /**
     * Statistics type of range distribution: Map, Sketch and Auto are accepted and all use the same
     * bounded, weighted reservoir sample of sort keys per statistics subtask and checkpoint.
     */
    public static final ConnectorOption<String> RANGE_DISTRIBUTION_STATISTICS_TYPE =
            ConnectorOption.builder(
                            ConfigOptions.key("range-distribution-statistics-type")
                                    .stringType()
                                    .defaultValue("Auto")
                                    .withDescription(
                                            "Statistics used by range distribution: Map, Sketch or"
                                                    + " Auto. This sink accepts all three and uses"
                                                    + " one kind of statistics for each: a bounded"
                                                    + " reservoir sample of sort keys per"
                                                    + " statistics subtask and checkpoint,"
                                                    + " weighted by its record count (hot keys are"
                                                    + " spread over several writers)."),
                            String.class)
                    .flinkConfigKey("range-distribution-statistics-type")
                    .build();

    /** Sort-key base weight of range distribution (extra weight of every distinct key). */
    public static final ConnectorOption<Double> RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT =
            ConnectorOption.builder(
                            ConfigOptions.key("range-distribution-sort-key-base-weight")
                                    .doubleType()
                                    .defaultValue(0.0)
                                    .withDescription(
                                            "Base weight of every sort key for range distribution,"
                                                    + " as a fraction of one writer's share (e.g."
                                                    + " 0.01): each distinct sampled key counts"
                                                    + " that much extra, which spreads"
                                                    + " low-cardinality keys over more writers."
                                                    + " Must be >= 0."),
                            Double.class)
                    .flinkConfigKey("range-distribution-sort-key-base-weight")
                    .build();

    /** Branch the sink commits to (option-only). */
    public static final ConnectorOption<String> BRANCH =
            ConnectorOption.builder(
                            ConfigOptions.key("branch")
                                    .stringType()
                                    .defaultValue("main")
                                    .withDescription(
                                            "Branch the sink commits to; created on the first"
                                                    + " commit when missing. Option-only: never"
                                                    + " read from the Flink configuration."),
                            String.class)
                    .build();

    /** Parallelism of the writers (option-only). */
    public static final ConnectorOption<Integer> WRITE_PARALLELISM =
            ConnectorOption.builder(
                            ConfigOptions.key("write-parallelism")
                                    .intType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "Parallelism of the writer subtasks (and of the"
                                                    + " distribution and de-duplication before"
                                                    + " them); default: the input's parallelism."
                                                    + " Option-only: never read from the Flink"
                                                    + " configuration."),
                            Integer.class)
                    .build();

    /** Suffix of the uids of the sink's operators. */
    public static final ConnectorOption<String> UID_SUFFIX =
            ConnectorOption.builder(
                            ConfigOptions.key("uid-suffix")
                                    .stringType()
                                    .defaultValue("")
                                    .withDescription(
                                            "Suffix of the uids of the sink's operators"
                                                    + " ('<role>-<suffix>'); empty means the table"
                                                    + " name. Keep it stable across job versions:"
                                                    + " changing it loses the committer's state."
                                                    + " Two sinks in one job need distinct"
                                                    + " suffixes."),
                            String.class)
                    .flinkConfigKey("uid-suffix")
                    .build();

    /**
     * Whether the sink compacts the table's small files after its commits (the maintenance module's
     * RewriteDataFiles, tuned by the {@code flink-maintenance.rewrite.*} options).
     */
    public static final ConnectorOption<Boolean> REWRITE_ENABLED =
            ConnectorOption.builder(
                            ConfigOptions.key("flink-maintenance.rewrite.enabled")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withFallbackKeys("compaction-enabled")
                                    .withDescription(
                                            "Whether the sink compacts small data files after its"
                                                    + " commits, in the same job (needs the"
                                                    + " iceberg-flink-maintenance module; tuned by"
                                                    + " the 'flink-maintenance.rewrite.*' options)."
                                                    + " 'compaction-enabled' is the same option."),
                            Boolean.class)
                    .flinkConfigKey("flink-maintenance.rewrite.enabled")
                    .build();

    /**
     * Whether the sink expires old snapshots after its commits (the maintenance module's
     * ExpireSnapshots, tuned by the {@code flink-maintenance.expire-snapshots.*} options).
     */
    public static final ConnectorOption<Boolean> EXPIRE_SNAPSHOTS_ENABLED =
            ConnectorOption.builder(
                            ConfigOptions.key("flink-maintenance.expire-snapshots.enabled")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withDescription(
                                            "Whether the sink expires old snapshots after its"
                                                    + " commits, in the same job (needs the"
                                                    + " iceberg-flink-maintenance module; tuned by"
                                                    + " the 'flink-maintenance.expire-snapshots.*'"
                                                    + " options)."),
                            Boolean.class)
                    .flinkConfigKey("flink-maintenance.expire-snapshots.enabled")
                    .build();

    /**
     * Whether the sink deletes orphan files after its commits (the maintenance module's
     * DeleteOrphanFiles, tuned by the {@code flink-maintenance.delete-orphan-files.*} options).
     */
    public static final ConnectorOption<Boolean> DELETE_ORPHAN_FILES_ENABLED =
            ConnectorOption.builder(
                            ConfigOptions.key("flink-maintenance.delete-orphan-files.enabled")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withDescription(
                                            "Whether the sink deletes files no snapshot references"
                                                    + " (left by failed writes), in the same job"
                                                    + " (needs the iceberg-flink-maintenance module;"
                                                    + " tuned by the"
                                                    + " 'flink-maintenance.delete-orphan-files.*'"
                                                    + " options)."),
                            Boolean.class)
                    .flinkConfigKey("flink-maintenance.delete-orphan-files.enabled")
                    .build();

    /**
     * Whether the sink turns its equality deletes into position deletes or deletion vectors after
     * its commits (the maintenance module's RewriteEqualityDeletes, tuned by the {@code
     * flink-maintenance.convert-equality-deletes.*} options).
     */
    public static final ConnectorOption<Boolean> CONVERT_EQUALITY_DELETES_ENABLED =
            ConnectorOption.builder(
                            ConfigOptions.key("flink-maintenance.convert-equality-deletes.enabled")
                                    .booleanType()
                                    .defaultValue(false)
                                    .withDescription(
                                            "Whether the sink turns the equality deletes of its"
                                                    + " upserts into position deletes (format v2) or"
                                                    + " deletion vectors (v3) after its commits, so"
                                                    + " that readers of any engine stop paying the"
                                                    + " equality-delete join (needs the"
                                                    + " iceberg-flink-maintenance module; tuned by"
                                                    + " the"
                                                    + " 'flink-maintenance.convert-equality-deletes.*'"
                                                    + " options)."),
                            Boolean.class)
                    .flinkConfigKey("flink-maintenance.convert-equality-deletes.enabled")
                    .build();

    /** How often running writers look for a new schema or partition spec of their table. */
    public static final ConnectorOption<Duration> TABLE_REFRESH_INTERVAL =
            ConnectorOption.builder(
                            ConfigOptions.key("table-refresh-interval")
                                    .durationType()
                                    .noDefaultValue()
                                    .withDescription(
                                            "How often running writers load their table again"
                                                    + " to pick up a schema or partition spec"
                                                    + " changed elsewhere (another job, ALTER"
                                                    + " TABLE), e.g. '1 min'. A writer looks when"
                                                    + " it starts the files of a checkpoint and"
                                                    + " the interval has passed; from then on it"
                                                    + " writes with the table's new spec, and"
                                                    + " with its new schema, the input's rows"
                                                    + " converted (new columns NULL, widened types"
                                                    + " widened). Unset: writers keep the table"
                                                    + " as it was when the job was built."),
                            Duration.class)
                    .flinkConfigKey("table-refresh-interval")
                    .build();

    /** All write options, for validation of user-given keys and for generated docs. */
    public static List<ConnectorOption<?>> all() {
        return List.of(
                WRITE_FORMAT,
                TARGET_FILE_SIZE_BYTES,
                COMPRESSION_CODEC,
                COMPRESSION_LEVEL,
                COMPRESSION_STRATEGY,
                UPSERT_ENABLED,
                UPSERT_UNIQUE_KEYS,
                UPSERT_KEY_MEMORY,
                UPSERT_SPILL_DIRECTORY,
                UPSERT_ROW_GROUP_SIZE_BYTES,
                DELETE_ROW_GROUP_SIZE_BYTES,
                OVERWRITE_ENABLED,
                DISTRIBUTION_MODE,
                RANGE_DISTRIBUTION_STATISTICS_TYPE,
                RANGE_DISTRIBUTION_SORT_KEY_BASE_WEIGHT,
                BRANCH,
                WRITE_PARALLELISM,
                UID_SUFFIX,
                TABLE_REFRESH_INTERVAL,
                REWRITE_ENABLED,
                EXPIRE_SNAPSHOTS_ENABLED,
                DELETE_ORPHAN_FILES_ENABLED,
                CONVERT_EQUALITY_DELETES_ENABLED);
    }

    /**
     * The settings of maintenance after the sink's commits ({@code flink-maintenance.*}), as the
     * maintenance module defines them; empty when that module is not on the class path (then no
     * maintenance can be switched on either).
     */
    public static List<ConnectorOption<?>> maintenanceSettings() {
        return PostCommitMaintenance.provider()
                .map(PostCommitMaintenance::options)
                .orElse(List.of());
    }

    /**
     * {@link #COMPRESSION_CODEC} falling back to the codec property of {@code format} ({@code
     * parquet}, {@code orc} or {@code avro}).
     */
    public static ConnectorOption<String> compressionCodecFor(String format) {
        return COMPRESSION_CODEC.withTableProperty(codecProperty(format));
    }

    /**
     * {@link #COMPRESSION_LEVEL} falling back to the level property of {@code format}; ORC has no
     * level, so for ORC the option has no table property.
     */
    public static ConnectorOption<String> compressionLevelFor(String format) {
        String property = levelProperty(format);
        return property == null ? COMPRESSION_LEVEL : COMPRESSION_LEVEL.withTableProperty(property);
    }

    /** The table property holding the compression codec of {@code format}. */
    static String codecProperty(String format) {
        switch (format) {
            case "parquet":
                return TableProperties.PARQUET_COMPRESSION;
            case "orc":
                return TableProperties.ORC_COMPRESSION;
            case "avro":
                return TableProperties.AVRO_COMPRESSION;
            default:
                throw new IllegalArgumentException("Unknown file format " + format);
        }
    }

    /** The table property holding the compression level of {@code format}, null for ORC. */
    static String levelProperty(String format) {
        switch (format) {
            case "parquet":
                return TableProperties.PARQUET_COMPRESSION_LEVEL;
            case "avro":
                return TableProperties.AVRO_COMPRESSION_LEVEL;
            case "orc":
                return null;
            default:
                throw new IllegalArgumentException("Unknown file format " + format);
        }
    }
}
