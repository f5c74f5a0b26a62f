package dev.icebergflink.source;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import dev.icebergflink.source.assigner.SplitAssignerFactory;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.enumerator.IcebergEnumeratorFactory;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.enumerator.IcebergEnumeratorStateSerializer;
import dev.icebergflink.source.planning.PlanningTable;
import dev.icebergflink.source.reader.AvroGenericRecordConverter;
import dev.icebergflink.source.reader.IcebergReaderFunction;
import dev.icebergflink.source.reader.IcebergSourceReader;
import dev.icebergflink.source.reader.IdentityRowDataConverter;
import dev.icebergflink.source.reader.RowConverter;
import dev.icebergflink.source.reader.SplitWatermarkExtractor;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.tasks.codec.LoadingTableMetadata;
import java.util.Objects;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.iceberg.Table;

/**
 * The FLIP-27 source of Iceberg tables: bounded reads (current snapshot, time travel, bounded
 * incremental ranges) and unbounded reads that keep picking up new snapshots.
 *
 * <pre>{@code
 * IcebergSource<RowData> source =
 *     IcebergSource.forRowData()
 *         .tableLoader(TableLoader.fromHadoopTable("hdfs://warehouse/db/events"))
 *         .streaming(true)
 *         .streamingStartingStrategy(StreamingStartingStrategy.INCREMENTAL_FROM_LATEST_SNAPSHOT)
 *         .monitorInterval(Duration.ofSeconds(30))
 *         .build();
 * DataStream<RowData> rows =
 *     env.fromSource(source, WatermarkStrategy.noWatermarks(), "events", source.getProducedType());
 * }</pre>
 *
 * <p>Start with {@link #forRowData()} (or {@link #forRow()}, {@link #forGenericRecord()}, {@link
 * #builder(ConverterFactory)}), set a {@link Builder#tableLoader table loader} and options, and
 * pass the built source to {@code env.fromSource(..)}. The builder only collects settings; {@link
 * Builder#build()} loads the table once, resolves every option into one immutable plan ({@link
 * ScanContext}) and rejects contradictions before any job runs.
 *
 * <p>The topology: an enumerator on the JobManager plans splits (off the coordinator thread) and
 * hands them to readers, which ask for one split at a time; both checkpoint with versioned
 * serializers, so a restore resumes mid-split without loss or duplicates.
 *
 * <pre>
 *            JobManager                              TaskManagers
 *   +-------------------------+   splits    +--------------------------+
 *   | enumerator              | ----------> | reader 0: split -> rows  |
 *   |  static (bounded) or    | ----------> | reader 1: split -> rows  |
 *   |  continuous (unbounded) | <---------- | ...                      |
 *   |  plans splits of table  |  requests,  +--------------------------+
 *   +-------------------------+  limit event
 * </pre>
 *
 * <p><b>Schema.</b> The projection, and so the type of the emitted records, is resolved from the
 * table's schema in {@link Builder#build()} and kept for the life of the job. Schema changes while
 * a read runs do not stop it: files are read by field id, so an added column is not emitted, a
 * renamed one keeps its old name, and a widened one ({@code int} to {@code long}, {@code float} to
 * {@code double}, a decimal's precision) is read back in its old type (a value that does not fit
 * fails the job). A job built again (restarted, also from a savepoint) emits the new schema.
 *
 * <p><b>Table identity.</b> The enumerator's checkpoints keep the table's UUID; a table dropped and
 * re-created under the same name fails the read, without restarts, instead of stalling or reading
 * the new table ({@link dev.icebergflink.source.planning.TableIdentity}).
 *
 * @param <T> the emitted record type
 */
@PublicEvolving
public final class IcebergSource<T>
        implements Source<T, IcebergSourceSplit, IcebergEnumeratorState>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final TableLoader tableLoader;
    private final String tableName;
    private final ScanContext scanContext;
    private final IcebergEnumeratorFactory enumerators;
    private final IcebergReaderFunction<T> readerFunction;
    private final SplitWatermarkExtractor watermarkExtractor;

    /** See {@link IcebergSourceAssembly}, which puts the parts together. */
    IcebergSource(
            TableLoader tableLoader,
            String tableName,
            ScanContext scanContext,
            SplitAssignerFactory assignerFactory,
            IcebergReaderFunction<T> readerFunction,
            SplitWatermarkExtractor watermarkExtractor) {
        this.tableLoader = tableLoader;
        this.tableName = tableName;
        this.scanContext = scanContext;
        this.enumerators =
                new IcebergEnumeratorFactory(tableLoader, tableName, scanContext, assignerFactory);
        this.readerFunction = readerFunction;
        this.watermarkExtractor = watermarkExtractor;
    }

    /** A builder of a source emitting Flink {@link RowData} (internal data structures). */
    public static Builder<RowData> forRowData() {
        return new Builder<>(
                schema -> new IdentityRowDataConverter(FlinkSchemaUtil.convert(schema)));
    }

    /** A builder of a source emitting Flink {@link Row}s (external data structures). */
    public static Builder<Row> forRow() {
        return new Builder<>(schema -> new RowConverter(FlinkSchemaUtil.convert(schema)));
    }

    /** A builder of a source emitting Avro {@link GenericRecord}s of the projected schema. */
    public static Builder<GenericRecord> forGenericRecord() {
        return new Builder<>(schema -> new AvroGenericRecordConverter(schema, "record"));
    }

    /** A builder of a source emitting whatever the converter makes of each row. */
    public static <T> Builder<T> builder(ConverterFactory<T> converterFactory) {
        return new Builder<>(converterFactory);
    }

    /** The resolved read plan. */
    public ScanContext scanContext() {
        return scanContext;
    }

    @Override
    public Boundedness getBoundedness() {
        return scanContext.mode().boundedness();
    }

    @Override
    public SourceReader<T, IcebergSourceSplit> createReader(SourceReaderContext readerContext) {
        return new IcebergSourceReader<>(
                readerFunction, scanContext.limit(), watermarkExtractor, readerContext);
    }

    @Override
    public SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> createEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext) {
        return enumerators.create(enumContext, null);
    }

    @Override
    public SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext,
            IcebergEnumeratorState checkpoint) {
        return enumerators.create(enumContext, checkpoint);
    }

    @Override
    public IcebergSourceSplitSerializer getSplitSerializer() {
        return new IcebergSourceSplitSerializer(new LoadingTableMetadata(tableLoader));
    }

    @Override
    public IcebergEnumeratorStateSerializer getEnumeratorCheckpointSerializer() {
        return new IcebergEnumeratorStateSerializer(getSplitSerializer());
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return readerFunction.producedType();
    }

    @Override
    public String toString() {
        return "IcebergSource{table=" + tableName + ", streaming=" + scanContext.streaming() + "}";
    }

    /**
     * Collects the settings of an {@link IcebergSource}: the read settings (table, projection,
     * filters and options by key, see {@link ReadOptionSetters}) and what only this builder has
     * (split assigner, Flink configuration, batch size). The last call for a key wins. {@link
     * #build()} validates ({@link #validate()}), resolves the options against the table once into a
     * plan, and assembles the source from it ({@link IcebergSourceAssembly}).
     *
     * @param <T> the emitted record type
     */
    public static final class Builder<T> extends ReadOptionSetters<Builder<T>> {
        private final ConverterFactory<T> converterFactory;
        private SplitAssignerFactory assignerFactory;
        private ReadableConfig flinkConfig = new Configuration();
        private int batchSize = IcebergReaderFunction.DEFAULT_BATCH_SIZE;

        private Builder(ConverterFactory<T> converterFactory) {
            this.converterFactory = Objects.requireNonNull(converterFactory, "converterFactory");
        }

        @Override
        Builder<T> self() {
            return this;
        }

        /**
         * How pending splits are ordered for readers; {@link SimpleSplitAssignerFactory} (FIFO) by
         * default. Not together with {@link #watermarkColumn}, which orders by watermark itself.
         * {@code build()} lets the factory check the table and split settings (e.g. {@link
         * dev.icebergflink.source.assigner.OrderedSplitAssignerFactory} needs format v2+ and one
         * file per split). Assigners order the pending splits only: with paged planning ({@code
         * split-planning-page-size}) that is one page of a full scan at a time.
         */
        public Builder<T> assignerFactory(SplitAssignerFactory factory) {
            this.assignerFactory = factory;
            return this;
        }

        /** The Flink configuration options fall back to (e.g. the environment's). */
        public Builder<T> flinkConfig(ReadableConfig config) {
            this.flinkConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Records per batch handed from the fetcher thread to the reader. */
        public Builder<T> batchSize(int records) {
            this.batchSize = records;
            return this;
        }

        /**
         * Checks the settings that need no table: a table loader is set and the batch size is
         * positive. {@link #build()} calls it first; option values are checked when they are
         * resolved against the table.
         *
         * @throws IllegalStateException when no table loader was set
         * @throws IllegalArgumentException when the batch size is not positive
         */
        public Builder<T> validate() {
            if (tableLoader == null) {
                throw new IllegalStateException(
                        table == null
                                ? "IcebergSource needs a table: call tableLoader(..) before build()"
                                : "IcebergSource needs tableLoader(..) also with table("
                                        + table.name()
                                        + "): the enumerator loads the table through it where"
                                        + " it plans; call tableLoader(..) with a loader of that"
                                        + " table before build()");
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException(
                        "batchSize(..) must be at least 1 record, got " + batchSize);
            }
            return this;
        }

        /**
         * Resolves every option collected so far against {@code table}, once, into the immutable
         * plan the source runs with: explicit settings first, then the Flink configuration ({@code
         * connector.iceberg.*}), then table properties, then defaults.
         *
         * @throws IllegalArgumentException naming the options when settings are invalid or
         *     contradict each other
         */
        ScanContext resolve(Table table) {
            return ScanContext.resolve(options, flinkConfig, table, projection, filters);
        }

        /**
         * Loads the table (unless {@link #table(Table) given}), resolves and validates every
         * setting, and creates the source.
         *
         * @throws IllegalArgumentException naming the options when settings are invalid or
         *     contradict each other
         * @throws IllegalStateException when no table loader was set
         */
        public IcebergSource<T> build() {
            validate();
            Table planned = table != null ? table : PlanningTable.load(tableLoader);
            return IcebergSourceAssembly.assemble(
                    tableLoader,
                    planned,
                    resolve(planned),
                    converterFactory,
                    assignerFactory,
                    batchSize);
        }
    }
}
