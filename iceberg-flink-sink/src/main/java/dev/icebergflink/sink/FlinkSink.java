package dev.icebergflink.sink;

import dev.icebergflink.TableLoader;
import dev.icebergflink.options.ConnectorOption;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Table;

/**
 * The DataStream-style entry point the user documentation shows:
 *
 * <pre>{@code
 * FlinkSink.forRowData(stream)
 *     .tableLoader(TableLoader.fromHadoopTable("file:///warehouse/db/events"))
 *     .upsert(true)
 *     .equalityFieldColumns(List.of("id"))
 *     .append();
 * }</pre>
 *
 * <p>It is a facade over {@link IcebergSink}: it builds the same sink (with the job's Flink
 * configuration as the configuration layer of option resolution), attaches it with {@code sinkTo},
 * gives the writer a stable uid ({@code iceberg-writer-<suffix>}; Flink derives the committer's
 * from it) and sets the writer parallelism from {@code write-parallelism}. {@link #forRow} first
 * converts external {@link Row}s to {@link RowData}, {@link #builderFor} any type with the user's
 * map function. The topology it attaches:
 *
 * <pre>
 *  stream --> distribution --> writers --> aggregator --> committer
 *             (hash/range,     (write-      (1 subtask,    (1 snapshot
 *              de-duplication)  parallelism) manifests)     per checkpoint)
 * </pre>
 */
@PublicEvolving
public final class FlinkSink {

    private FlinkSink() {}

    /** Starts a sink for a stream of {@link RowData}. */
    public static Builder forRowData(DataStream<RowData> input) {
        return new Builder(input, null);
    }

    /**
     * Starts a sink for a stream of {@link Row}s with the given schema (its physical columns must
     * fit the table).
     */
    public static Builder forRow(DataStream<Row> input, ResolvedSchema schema) {
        DataType dataType = schema.toPhysicalRowDataType();
        RowType rowType = (RowType) dataType.getLogicalType();
        DataStream<RowData> converted =
                input.map(new RowToRowDataMapper(dataType), InternalTypeInfo.of(rowType))
                        .setParallelism(input.getParallelism())
                        .name("Row to RowData");
        return new Builder(converted, schema);
    }

    /**
     * Starts a sink for a stream of any type: {@code mapper} turns each element into a {@link
     * RowData} of the table's columns, in a map operator with the input's parallelism in front of
     * the sink. When {@code outputType} is an {@link InternalTypeInfo} of a {@link RowType} (e.g.
     * {@code InternalTypeInfo.of(FlinkSchemaUtil.convert(table.schema()))}), that row type is the
     * input's schema and is checked against the table like {@link Builder#tableSchema}; the
     * mapper's rows must have its field types, as Flink's internal data structures.
     */
    public static <T> Builder builderFor(
            DataStream<T> input,
            MapFunction<T, RowData> mapper,
            TypeInformation<RowData> outputType) {
        if (input == null || mapper == null || outputType == null) {
            throw new IllegalArgumentException(
                    "builderFor(input, mapper, outputType) needs all three; got "
                            + (input == null
                                    ? "no input"
                                    : mapper == null ? "no mapper" : "no outputType"));
        }
        DataStream<RowData> converted =
                input.map(mapper, outputType)
                        .setParallelism(input.getParallelism())
                        .name("To RowData");
        return new Builder(converted, schemaOf(outputType));
    }

    /** The physical schema an {@link InternalTypeInfo} of a row type declares, else null. */
    private static ResolvedSchema schemaOf(TypeInformation<RowData> type) {
        if (type instanceof InternalTypeInfo<?> internal
                && internal.toLogicalType() instanceof RowType rowType) {
            return ResolvedSchema.physical(
                    rowType.getFieldNames(),
                    rowType.getChildren().stream()
                            .map(TypeConversions::fromLogicalToDataType)
                            .toList());
        }
        return null;
    }

    /** Collects the settings of {@link IcebergSink.Builder} and attaches the sink. */
    public static final class Builder {
        private final DataStream<RowData> input;
        private final IcebergSink.Builder sink = IcebergSink.forRowData();

        private Builder(DataStream<RowData> input, ResolvedSchema schema) {
            this.input = input;
            if (schema != null) {
                sink.tableSchema(schema);
            }
        }

        public Builder tableLoader(TableLoader loader) {
            sink.tableLoader(loader);
            return this;
        }

        public Builder overwrite(boolean enabled) {
            sink.overwrite(enabled);
            return this;
        }

        public Builder upsert(boolean enabled) {
            sink.upsert(enabled);
            return this;
        }

        /**
         * Promises at most one change per equality key ({@link
         * IcebergSink.Builder#upsertUniqueKeys}).
         */
        public Builder upsertUniqueKeys(boolean promised) {
            sink.upsertUniqueKeys(promised);
            return this;
        }

        /** Declares the input insert-only ({@link IcebergSink.Builder#insertOnly}). */
        public Builder insertOnly(boolean enabled) {
            sink.insertOnly(enabled);
            return this;
        }

        public Builder equalityFieldColumns(List<String> columns) {
            sink.equalityFieldColumns(columns);
            return this;
        }

        public Builder distributionMode(DistributionMode mode) {
            sink.distributionMode(mode);
            return this;
        }

        public Builder writeParallelism(int parallelism) {
            sink.writeParallelism(parallelism);
            return this;
        }

        /** The branch to commit to ({@link IcebergSink.Builder#branch}). */
        public Builder branch(String branch) {
            sink.branch(branch);
            return this;
        }

        /** The same as {@link #branch}: the name Iceberg's own Flink sink uses. */
        public Builder toBranch(String branch) {
            return branch(branch);
        }

        public Builder uidSuffix(String suffix) {
            sink.uidSuffix(suffix);
            return this;
        }

        /** Adds a snapshot-summary property ({@link IcebergSink.Builder#snapshotProperty}). */
        public Builder snapshotProperty(String key, String value) {
            sink.snapshotProperty(key, value);
            return this;
        }

        /** Adds snapshot-summary properties ({@link IcebergSink.Builder#snapshotProperties}). */
        public Builder snapshotProperties(Map<String, String> properties) {
            sink.snapshotProperties(properties);
            return this;
        }

        /** The same as {@link #snapshotProperty}: the name Iceberg's own Flink sink uses. */
        public Builder setSnapshotProperty(String key, String value) {
            return snapshotProperty(key, value);
        }

        /** The same as {@link #snapshotProperties}: the name Iceberg's own Flink sink uses. */
        public Builder setSnapshotProperties(Map<String, String> properties) {
            return snapshotProperties(properties);
        }

        public Builder set(String key, String value) {
            sink.set(key, value);
            return this;
        }

        /** A write option given as its constant; see {@link IcebergSink.Builder#set}. */
        public Builder set(ConnectorOption<?> option, String value) {
            sink.set(option, value);
            return this;
        }

        /**
         * A table already loaded, so that building the sink does not load it again; the table
         * loader stays required. See {@link IcebergSink.Builder#table(Table)}.
         */
        public Builder table(Table table) {
            sink.table(table);
            return this;
        }

        public Builder setAll(Map<String, String> options) {
            sink.setAll(options);
            return this;
        }

        /** The Flink-side schema, when it differs from the table's; see IcebergSink. */
        public Builder tableSchema(ResolvedSchema schema) {
            sink.tableSchema(schema);
            return this;
        }

        /** Static partition overwrite; see {@link IcebergSink.Builder#overwritePartition}. */
        public Builder overwritePartition(Map<String, String> partition) {
            sink.overwritePartition(partition);
            return this;
        }

        /** Validates, builds the sink and attaches it to the input. */
        public DataStreamSink<RowData> append() {
            IcebergSink built =
                    sink.flinkConf(input.getExecutionEnvironment().getConfiguration())
                            .build()
                            .withOperatorUids();
            DataStreamSink<RowData> result =
                    input.sinkTo(built).uid(built.writerUid()).name(built.writerUid());
            if (built.writeParallelism() != null) {
                result.setParallelism(built.writeParallelism());
            }
            return result;
        }

        /** The same as {@link #append()}. */
        public DataStreamSink<RowData> build() {
            return append();
        }
    }
}
