package dev.icebergflink.source;

import static dev.icebergflink.source.SourceITCaseSupport.collect;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.testing.GenericFileWriters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Bounded reads of a format-v2 table with position and equality deletes, checked by content. */
class IcebergSourceDeletesITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    @TempDir Path dir;

    @Test
    void positionAndEqualityDeletesAreApplied() throws Exception {
        String location = dir.resolve("t").toString();
        Table table = SourceTestTables.create(location, 2);
        DataFile data = SourceTestTables.writeFile(table, SourceTestTables.records(0, 20));
        table.newAppend().appendFile(data).commit();
        SourceTestTables.append(table, 20, 30);

        // Position deletes: rows 3 and 4 of the first file.
        PositionDeleteWriter<Record> posWriter =
                GenericFileWriters.positionDeletes(table, FileFormat.PARQUET)
                        .newPositionDeleteWriter(
                                EncryptedFiles.plainAsEncryptedOutput(
                                        table.io()
                                                .newOutputFile(
                                                        location
                                                                + "/data/pos-"
                                                                + UUID.randomUUID()
                                                                + ".parquet")),
                                table.spec(),
                                null);
        try (posWriter) {
            PositionDelete<Record> delete = PositionDelete.create();
            posWriter.write(delete.set(data.location(), 3L));
            posWriter.write(delete.set(data.location(), 4L));
        }
        DeleteFile posDeletes = posWriter.toDeleteFile();

        // Equality deletes on id: ids 10 and 25.
        org.apache.iceberg.Schema idSchema = table.schema().select("id");
        EqualityDeleteWriter<Record> eqWriter =
                GenericFileWriters.equalityDeletes(
                                table, FileFormat.PARQUET, new int[] {1}, idSchema)
                        .newEqualityDeleteWriter(
                                EncryptedFiles.plainAsEncryptedOutput(
                                        table.io()
                                                .newOutputFile(
                                                        location
                                                                + "/data/eq-"
                                                                + UUID.randomUUID()
                                                                + ".parquet")),
                                table.spec(),
                                null);
        try (eqWriter) {
            for (long id : new long[] {10, 25}) {
                Record key = org.apache.iceberg.data.GenericRecord.create(idSchema);
                key.setField("id", id);
                eqWriter.write(key);
            }
        }
        table.newRowDelta().addDeletes(posDeletes).addDeletes(eqWriter.toDeleteFile()).commit();

        List<RowData> rows =
                collect(
                        IcebergSource.forRowData()
                                .tableLoader(TableLoader.fromHadoopTable(location))
                                .build());
        List<Long> expected = new ArrayList<>(SourceTestTables.range(0, 30));
        expected.removeAll(List.of(3L, 4L, 10L, 25L));
        assertThat(SourceTestTables.ids(rows)).isEqualTo(expected);
        assertThat(rows.get(0).getArity()).isEqualTo(3);

        // A projection without the equality key still applies the deletes.
        List<RowData> projected =
                collect(
                        IcebergSource.forRowData()
                                .tableLoader(TableLoader.fromHadoopTable(location))
                                .project(table.schema().select("data"))
                                .build());
        assertThat(projected.stream().map(r -> r.getString(0).toString()).sorted().toList())
                .isEqualTo(expected.stream().map(id -> "row-" + id).sorted().toList());
    }
}
