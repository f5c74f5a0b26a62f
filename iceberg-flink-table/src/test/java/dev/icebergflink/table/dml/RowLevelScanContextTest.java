package dev.icebergflink.table.dml;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.connector.source.abilities.SupportsRowLevelModificationScan.RowLevelModificationType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot a row-level statement pins and the conflict filter its scan hands to the sink. */
class RowLevelScanContextTest {

    @TempDir Path warehouse;

    private Table table() {
        HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
        return catalog.createTable(
                TableIdentifier.of("db", "t"),
                new Schema(Types.NestedField.optional(1, "id", Types.IntegerType.get())));
    }

    @Test
    void pinsTheCurrentSnapshotAndKeepsItForTheSameStatement() {
        Table table = table();
        RowLevelScanContext empty =
                RowLevelScanContext.pin("t", table, RowLevelModificationType.DELETE, null);
        assertThat(empty.snapshotId()).isNull();

        table.newFastAppend()
                .appendFile(
                        DataFiles.builder(PartitionSpec.unpartitioned())
                                .withPath(warehouse.resolve("a.parquet").toString())
                                .withFileSizeInBytes(10)
                                .withRecordCount(1)
                                .build())
                .commit();
        RowLevelScanContext first =
                RowLevelScanContext.pin("t", table, RowLevelModificationType.UPDATE, null);
        assertThat(first.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(first.type()).isEqualTo(RowLevelModificationType.UPDATE);
        // a second scan of the same table in the statement reads the same snapshot
        assertThat(RowLevelScanContext.pin("t", table, RowLevelModificationType.UPDATE, first))
                .isSameAs(first);
        assertThat(RowLevelScanContext.pin("other", table, RowLevelModificationType.UPDATE, first))
                .isNotSameAs(first);
    }

    @Test
    void theConflictFilterIsTheConjunctionOfThePushedFilters() {
        RowLevelScanContext context =
                RowLevelScanContext.pin("t", table(), RowLevelModificationType.DELETE, null);
        assertThat(context.conflictDetectionFilter()).isEqualTo(Expressions.alwaysTrue());
        context.useFilters(List.of(Expressions.equal("id", 1), Expressions.greaterThan("id", 0)));
        assertThat(context.conflictDetectionFilter().toString())
                .isEqualTo(
                        Expressions.and(
                                        Expressions.equal("id", 1),
                                        Expressions.greaterThan("id", 0))
                                .toString());
    }
}
