package dev.icebergflink.source;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import dev.icebergflink.source.assigner.SplitAssignerFactory;
import dev.icebergflink.source.assigner.WatermarkOrderedSplitAssignerFactory;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.reader.ChangelogReading;
import dev.icebergflink.source.reader.ColumnStatsWatermarkExtractor;
import dev.icebergflink.source.reader.IcebergReaderFunction;
import dev.icebergflink.source.reader.MetadataAppender;
import dev.icebergflink.source.reader.ReadMetadataColumn;
import dev.icebergflink.source.reader.SplitWatermarkExtractor;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;

/**
 * Puts an {@link IcebergSource} together from a resolved plan and the table it was resolved
 * against: the split assigner (watermark-ordered with a {@code watermark-column}), the reader side
 * (file reader, converter, batches) and the enumerator factory.
 *
 * <p>It exists so that the Java builder and the SQL source, which resolve their plans differently,
 * assemble the same source from a plan without resolving any option again, and use the table they
 * already loaded.
 */
@Internal
public final class IcebergSourceAssembly {

    private IcebergSourceAssembly() {}

    /**
     * @param loader loads the table on the JobManager and for split restores
     * @param table the table the plan was resolved against
     * @param plan the resolved read plan
     * @param converters makes the emitted records of the projected schema
     * @param assignerFactory orders the pending splits, or {@code null} for the default
     * @param batchSize records per batch handed from the fetcher thread to the reader
     * @throws IllegalArgumentException when the assigner does not fit the plan or the table
     */
    public static <T> IcebergSource<T> assemble(
            TableLoader loader,
            Table table,
            ScanContext plan,
            ConverterFactory<T> converters,
            SplitAssignerFactory assignerFactory,
            int batchSize) {
        return assemble(loader, table, plan, converters, assignerFactory, batchSize, List.of());
    }

    /**
     * As {@link #assemble(TableLoader, Table, ScanContext, ConverterFactory, SplitAssignerFactory,
     * int)}, appending {@code metadata} to every row: the converters then receive rows of the
     * projected schema followed by the metadata columns, in this order.
     */
    public static <T> IcebergSource<T> assemble(
            TableLoader loader,
            Table table,
            ScanContext plan,
            ConverterFactory<T> converters,
            SplitAssignerFactory assignerFactory,
            int batchSize,
            List<ReadMetadataColumn> metadata) {
        if (plan.readsChangelog() && (assignerFactory != null || plan.watermarkColumn() != null)) {
            throw new IllegalArgumentException(
                    "Option 'changelog-mode' = 'all' reads snapshots in commit order; it cannot be"
                            + " combined with "
                            + (plan.watermarkColumn() != null
                                    ? "option 'watermark-column', which orders splits by watermark"
                                    : "assignerFactory("
                                            + assignerFactory.getClass().getSimpleName()
                                            + "), which orders splits its own way"));
        }
        SplitWatermarkExtractor extractor = watermarkExtractor(plan);
        SplitAssignerFactory assigners = assigners(plan, assignerFactory, extractor);
        assigners.validate(table, plan.splitSize(), plan.splitOpenFileCost());
        MetadataAppender appender = new MetadataAppender(metadata);
        if (plan.readsChangelog() && appender.readsFileColumns()) {
            throw new IllegalArgumentException(
                    "Option 'changelog-mode' = 'all' offers only the metadata columns 'snapshot_id'"
                            + " and 'commit_time', not "
                            + metadata.stream()
                                    .filter(ReadMetadataColumn::fromFile)
                                    .map(column -> "'" + column.key() + "'")
                                    .collect(Collectors.joining(", ")));
        }
        // file metadata columns are read as trailing columns of the file reader's projection
        Schema readProjection = appender.readProjection(plan.projectedSchema(), table);
        NameMapping mapping =
                plan.nameMapping() == null ? null : NameMappingParser.fromJson(plan.nameMapping());
        RowDataFileTaskReader fileReader =
                new RowDataFileTaskReader(
                        plan.tableSchema(),
                        readProjection,
                        mapping,
                        plan.caseSensitive(),
                        table.io(),
                        table.encryption());
        ChangelogReading changelog =
                plan.readsChangelog()
                        ? new ChangelogReading(
                                plan.tableSchema(),
                                plan.projectedSchema(),
                                mapping,
                                plan.caseSensitive(),
                                table.io(),
                                table.encryption())
                        : null;
        IcebergReaderFunction<T> readerFunction =
                new IcebergReaderFunction<>(
                        fileReader,
                        converters.create(plan.projectedSchema()),
                        batchSize,
                        changelog,
                        appender);
        return new IcebergSource<>(
                loader.clone(), table.name(), plan, assigners, readerFunction, extractor);
    }

    private static SplitWatermarkExtractor watermarkExtractor(ScanContext plan) {
        if (plan.watermarkColumn() == null) {
            return null;
        }
        return new ColumnStatsWatermarkExtractor(
                plan.tableSchema(),
                plan.watermarkColumn(),
                plan.watermarkColumnTimeUnit(),
                plan.caseSensitive());
    }

    /** The watermark-ordered assigner with a watermark column, else the chosen one or FIFO. */
    private static SplitAssignerFactory assigners(
            ScanContext plan, SplitAssignerFactory chosen, SplitWatermarkExtractor extractor) {
        if (extractor == null) {
            return chosen == null ? new SimpleSplitAssignerFactory() : chosen;
        }
        if (chosen != null) {
            throw new IllegalArgumentException(
                    "Option 'watermark-column' = '"
                            + plan.watermarkColumn()
                            + "' orders splits by watermark itself and cannot be combined"
                            + " with assignerFactory("
                            + chosen.getClass().getSimpleName()
                            + "); remove one of them");
        }
        return new WatermarkOrderedSplitAssignerFactory(extractor);
    }
}
