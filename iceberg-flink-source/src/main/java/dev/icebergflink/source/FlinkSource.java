package dev.icebergflink.source;

import dev.icebergflink.TableLoader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;

/**
 * A shortcut from an environment and a table to a {@code DataStream<RowData>}, for code written
 * against Iceberg's documented {@code FlinkSource} API, so that code written for it ports by
 * changing imports:
 *
 * <pre>{@code
 * DataStream<RowData> rows =
 *     FlinkSource.forRowData().env(env).tableLoader(loader).streaming(true).build();
 * }</pre>
 *
 * <p>It is a facade over {@link IcebergSource}: the setters are the same options, validated the
 * same way, and the job's configuration is the Flink configuration options fall back to. The stream
 * has no watermarks; use {@link IcebergSource} with {@code env.fromSource(..)} for event time.
 */
@PublicEvolving
public final class FlinkSource {

    private FlinkSource() {}

    /** Starts a builder of a {@code DataStream<RowData>}. */
    public static Builder forRowData() {
        return new Builder();
    }

    /** Collects the environment and the read options; see {@link IcebergSource.Builder}. */
    public static final class Builder {
        private final IcebergSource.Builder<RowData> source = IcebergSource.forRowData();
        private StreamExecutionEnvironment env;
        private String sourceName;
        private Integer parallelism;

        private Builder() {}

        /** The environment the stream belongs to (required). */
        public Builder env(StreamExecutionEnvironment environment) {
            this.env = environment;
            return this;
        }

        public Builder tableLoader(TableLoader loader) {
            source.tableLoader(loader);
            return this;
        }

        public Builder streaming(boolean streaming) {
            source.streaming(streaming);
            return this;
        }

        public Builder streamingStartingStrategy(StreamingStartingStrategy strategy) {
            source.streamingStartingStrategy(strategy);
            return this;
        }

        public Builder startSnapshotId(Long snapshotId) {
            source.startSnapshotId(snapshotId);
            return this;
        }

        public Builder startSnapshotTimestamp(Long timestampMillis) {
            source.startSnapshotTimestamp(timestampMillis);
            return this;
        }

        public Builder endSnapshotId(Long snapshotId) {
            source.endSnapshotId(snapshotId);
            return this;
        }

        public Builder snapshotId(Long snapshotId) {
            source.snapshotId(snapshotId);
            return this;
        }

        public Builder asOfTimestamp(Long timestampMillis) {
            source.asOfTimestamp(timestampMillis);
            return this;
        }

        public Builder branch(String branch) {
            source.branch(branch);
            return this;
        }

        public Builder tag(String tag) {
            source.tag(tag);
            return this;
        }

        public Builder monitorInterval(Duration interval) {
            source.monitorInterval(interval);
            return this;
        }

        public Builder project(Schema schema) {
            source.project(schema);
            return this;
        }

        public Builder filters(List<Expression> filters) {
            source.filters(filters);
            return this;
        }

        public Builder limit(Long limit) {
            source.limit(limit);
            return this;
        }

        public Builder splitSize(Long bytes) {
            source.splitSize(bytes);
            return this;
        }

        public Builder caseSensitive(boolean caseSensitive) {
            source.caseSensitive(caseSensitive);
            return this;
        }

        public Builder set(String key, String value) {
            source.set(key, value);
            return this;
        }

        public Builder setAll(Map<String, String> options) {
            source.setAll(options);
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
            source.flinkConfig(env.getConfiguration());
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
