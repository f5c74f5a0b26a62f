package dev.icebergflink.source;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

/**
 * A shortcut from an environment and a table to a {@code DataStream<RowData>}, for code written
 * against Iceberg's documented {@code FlinkSource} API, so that code written for it ports by
 * changing imports:
 *
 * <pre>{@code
 * DataStream<RowData> rows =
 *     FlinkSource.forRowData()
 *         .env(env)
 *         .tableLoader(TableLoader.fromHadoopTable("hdfs://warehouse/db/events"))
 *         .streaming(true)
 *         .monitorInterval(Duration.ofSeconds(30))
 *         .build();
 * }</pre>
 *
 * <p>It is a facade over {@link IcebergSource}: the setters are the same options ({@link
 * ReadOptionSetters}), validated the same way, and the job's configuration is the Flink
 * configuration options fall back to unless {@link Builder#flinkConf} names another. The stream has
 * no watermarks; use {@link IcebergSource} with {@code env.fromSource(..)} for event time. The
 * topology is the {@link IcebergSource}'s:
 *
 * <pre>
 *   enumerator (JobManager) --splits--> readers (source parallelism) --RowData--> stream
 * </pre>
 */
@PublicEvolving
public final class FlinkSource {

    private FlinkSource() {}

    /** Starts a builder of a {@code DataStream<RowData>}. */
    public static Builder forRowData() {
        return new Builder();
    }

    /**
     * Collects the environment and the read settings (see {@link ReadOptionSetters} and {@link
     * IcebergSource.Builder}).
     */
    public static final class Builder extends ReadOptionSetters<Builder> {
        private StreamExecutionEnvironment env;
        private ReadableConfig flinkConf;
        private String sourceName;
        private Integer parallelism;

        private Builder() {}

        @Override
        Builder self() {
            return this;
        }

        /** The environment the stream belongs to (required). */
        public Builder env(StreamExecutionEnvironment environment) {
            this.env = environment;
            return this;
        }

        /** The Flink configuration options fall back to; the environment's by default. */
        public Builder flinkConf(ReadableConfig config) {
            this.flinkConf = config;
            return this;
        }

        /** The operator name shown in the Flink UI; defaults to a name with the table. */
        public Builder sourceName(String name) {
            this.sourceName = name;
            return this;
        }

        /** The source parallelism; defaults to the environment's. */
        public Builder parallelism(int sourceParallelism) {
            this.parallelism = sourceParallelism;
            return this;
        }

        /**
         * Builds the {@link IcebergSource} and adds it to the environment.
         *
         * @throws IllegalStateException when no environment or table loader was set
         * @throws IllegalArgumentException when options are invalid or contradict each other
         */
        public DataStream<RowData> build() {
            if (env == null) {
                throw new IllegalStateException(
                        "FlinkSource needs an environment: call env(..) before build()");
            }
            IcebergSource.Builder<RowData> source = IcebergSource.forRowData();
            copyTo(source);
            source.flinkConfig(flinkConf != null ? flinkConf : env.getConfiguration());
            IcebergSource<RowData> built = source.build();
            DataStreamSource<RowData> stream =
                    env.fromSource(
                            built,
                            WatermarkStrategy.noWatermarks(),
                            Objects.requireNonNullElse(sourceName, built.toString()),
                            built.getProducedType());
            if (parallelism != null) {
                stream.setParallelism(parallelism);
            }
            return stream;
        }
    }
}
