package dev.icebergflink.e2e.soak.job;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The streaming job of the exactly-once soak test: a rate-limited, checkpointed sequence {@code
 * 0..rows-1} written through {@code IcebergSink}, either appended ({@code --mode append}: row
 * {@code n} is {@code (id=n, part=n%4, payload="row-n")}) or upserted by key ({@code --mode
 * upsert}: row {@code n} is {@code (key=n%keys, version=n, payload="v-n")}), so that the test knows
 * the exact table content the job must leave behind whatever faults it goes through.
 *
 * <p>Why it exists: the soak test needs a job whose output is a pure function of its arguments and
 * whose input position is in Flink's checkpoints ({@link DataGeneratorSource} keeps its remaining
 * number ranges in state), so a replay after any restore emits exactly the same rows. The source
 * runs with parallelism 1, so the updates of one key reach the (keyed) writers in the order of
 * {@code n}; the writers run with {@code --parallelism}. It ships as its own small jar; the
 * connector comes from the bundle in the cluster's {@code lib/}.
 *
 * <p>Arguments: {@code --catalog-uri <REST uri> --table <db>.<name> --mode append|upsert --rows N
 * [--keys K] [--rows-per-second R (0: unthrottled)] [--checkpoint-interval-ms MS] [--parallelism
 * P]}. The table must exist (the test creates it).
 */
public final class SoakJob {

    /** Partitions of the append table: {@code part = id % PARTS}. */
    public static final int PARTS = 4;

    private SoakJob() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        String mode = required(options, "mode");
        long rows = Long.parseLong(required(options, "rows"));
        long keys = Long.parseLong(options.getOrDefault("keys", "1"));
        long perSecond = Long.parseLong(options.getOrDefault("rows-per-second", "0"));
        long checkpointMs = Long.parseLong(options.getOrDefault("checkpoint-interval-ms", "1000"));
        int parallelism = Integer.parseInt(options.getOrDefault("parallelism", "2"));
        TableIdentifier table = TableIdentifier.parse(required(options, "table"));

        Map<String, String> catalogProperties = new HashMap<>();
        catalogProperties.put("uri", required(options, "catalog-uri"));
        CatalogLoader catalog =
                CatalogLoader.rest(
                        "soak", new org.apache.hadoop.conf.Configuration(), catalogProperties);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(checkpointMs);
        env.setParallelism(parallelism);

        RowType rowType;
        GeneratorFunction<Long, RowData> generator;
        IcebergSink.Builder sink =
                IcebergSink.forRowData()
                        .tableLoader(TableLoader.fromCatalog(catalog, table))
                        .uidSuffix(mode);
        switch (mode) {
            case "append":
                rowType =
                        RowType.of(
                                new org.apache.flink.table.types.logical.LogicalType[] {
                                    new BigIntType(false), new IntType(false), new VarCharType()
                                },
                                new String[] {"id", "part", "payload"});
                generator = new AppendRow();
                sink.insertOnly(true);
                break;
            case "upsert":
                if (keys < 1 || keys > rows) {
                    throw new IllegalArgumentException("--keys must be in 1.." + rows);
                }
                rowType =
                        RowType.of(
                                new org.apache.flink.table.types.logical.LogicalType[] {
                                    new BigIntType(false), new BigIntType(false), new VarCharType()
                                },
                                new String[] {"key", "version", "payload"});
                generator = new UpsertRow(keys);
                sink.upsert(true).equalityFieldColumns(List.of("key"));
                break;
            default:
                throw new IllegalArgumentException("--mode must be append or upsert: " + mode);
        }
        DataGeneratorSource<RowData> source =
                new DataGeneratorSource<>(
                        generator,
                        rows,
                        perSecond == 0
                                ? RateLimiterStrategy.noOp()
                                : RateLimiterStrategy.perSecond(perSecond),
                        InternalTypeInfo.of(rowType));
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "sequence 0.." + (rows - 1))
                .setParallelism(1)
                .uid("soak-sequence")
                .sinkTo(sink.build())
                .name("iceberg " + mode + " " + table);
        env.execute("soak " + mode + " into " + table);
    }

    /** Row {@code n} of the append job. */
    static final class AppendRow implements GeneratorFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public RowData map(Long n) {
            return GenericRowData.of(n, (int) (n % PARTS), StringData.fromString("row-" + n));
        }
    }

    /** Row {@code n} of the upsert job: an update of key {@code n % keys} to version {@code n}. */
    static final class UpsertRow implements GeneratorFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;
        private final long keys;

        UpsertRow(long keys) {
            this.keys = keys;
        }

        @Override
        public RowData map(Long n) {
            return GenericRowData.of(n % keys, n, StringData.fromString("v-" + n));
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("Expected --key value pairs, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String key) {
        String value = options.get(key);
        if (value == null) {
            throw new IllegalArgumentException("Missing --" + key);
        }
        return value;
    }
}
