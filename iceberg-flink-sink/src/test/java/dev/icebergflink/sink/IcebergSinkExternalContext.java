package dev.icebergflink.sink;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.testframe.external.ExternalSystemDataReader;
import org.apache.flink.connector.testframe.external.sink.DataStreamSinkV2ExternalContext;
import org.apache.flink.connector.testframe.external.sink.TestingSinkSettings;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.iceberg.types.Types.StringType;

/**
 * The external system of {@link IcebergSinkTestSuiteITCase}: a Hadoop-catalog warehouse in a
 * temporary folder with one fresh {@code (value string)} table per test. The reader returns the
 * rows committed since its last poll (as a multiset difference of the table's rows).
 */
final class IcebergSinkExternalContext implements DataStreamSinkV2ExternalContext<String> {

    private static final Schema SCHEMA =
            new Schema(NestedField.optional(1, "value", StringType.get()));
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final CatalogLoader catalogLoader;
    private final TableIdentifier identifier;
    private final TableLoader tableLoader;

    IcebergSinkExternalContext(Path warehouse) {
        Map<String, String> properties = new HashMap<>();
        properties.put("warehouse", warehouse.toUri().toString());
        this.catalogLoader = CatalogLoader.hadoop("suite", new Configuration(), properties);
        this.identifier = TableIdentifier.of("db", "suite" + COUNTER.incrementAndGet());
        catalogLoader
                .loadCatalog()
                .createTable(
                        identifier,
                        SCHEMA,
                        PartitionSpec.unpartitioned(),
                        Map.of("format-version", "2"));
        this.tableLoader = TableLoader.fromCatalog(catalogLoader, identifier);
    }

    @Override
    public Sink<String> createSink(TestingSinkSettings settings) {
        return new StringIcebergSink(IcebergSink.forRowData().tableLoader(tableLoader).build());
    }

    @Override
    public ExternalSystemDataReader<String> createSinkDataReader(TestingSinkSettings settings) {
        Map<String, Integer> seen = new HashMap<>();
        return new ExternalSystemDataReader<>() {
            @Override
            public List<String> poll(Duration timeout) {
                Map<String, Integer> now = new HashMap<>();
                Table table = tableLoader.clone().loadTable();
                try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
                    for (Record record : records) {
                        now.merge((String) record.getField("value"), 1, Integer::sum);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                List<String> fresh = new ArrayList<>();
                now.forEach(
                        (value, count) -> {
                            int already = seen.getOrDefault(value, 0);
                            for (int i = already; i < count; i++) {
                                fresh.add(value);
                            }
                        });
                seen.clear();
                seen.putAll(now);
                return fresh;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public List<String> generateTestData(TestingSinkSettings settings, long seed) {
        Random random = new Random(seed);
        int count = 100 + random.nextInt(200);
        List<String> data = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            data.add("record-" + i + "-" + Long.toHexString(random.nextLong()));
        }
        return data;
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public List<URL> getConnectorJarPaths() {
        return List.of();
    }

    @Override
    public void close() {}

    @Override
    public String toString() {
        return "Iceberg table " + identifier;
    }
}
