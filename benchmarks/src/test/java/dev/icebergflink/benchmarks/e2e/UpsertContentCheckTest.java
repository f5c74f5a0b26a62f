package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongPredicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upsert workload's answer check, against upserts committed by hand: the right one passes, and
 * each kind of wrong one (a missing delete, a stale value, an extra row) fails.
 */
class UpsertContentCheckTest {

    private static final long ROWS = 40;
    private static final long UPDATED = WorkloadRunner.upsertRows(ROWS);

    private final BenchmarkRows original = new BenchmarkRows(7);
    private final BenchmarkRows updates = new BenchmarkRows(8);

    @TempDir Path warehouse;

    @Test
    void acceptsTheRewrittenIdsWithNewValuesAndOneDeleteEach() throws IOException {
        Table table = upserted(id -> true, id -> true, updates, -1);

        assertThatCode(() -> check(table)).doesNotThrowAnyException();
    }

    @Test
    void failsWhenARewrittenIdHasNoEqualityDelete() throws IOException {
        Table table = upserted(id -> true, id -> id != 8, updates, -1);

        assertThatThrownBy(() -> check(table))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("equality-deleted ids");
    }

    @Test
    void failsWhenANewRowHoldsOldValues() throws IOException {
        Table table = upserted(id -> true, id -> true, original, -1);

        assertThatThrownBy(() -> check(table))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("should hold its new values");
    }

    @Test
    void failsWhenTheUpsertWritesAnIdItDidNotRewrite() throws IOException {
        Table table = upserted(id -> true, id -> true, updates, 5);

        assertThatThrownBy(() -> check(table))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("unexpected or duplicate id 5 in new file");
    }

    @Test
    void failsWhenARewrittenIdIsMissing() throws IOException {
        Table table = upserted(id -> id != 4, id -> id != 4, updates, -1);

        assertThatThrownBy(() -> check(table))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("ids inserted by the upsert");
    }

    private void check(Table table) {
        table.refresh();
        new UpsertContentCheck(table, original, updates, ROWS, UPDATED).check();
    }

    /**
     * The table after a hand-made upsert of every fourth id: new rows (values from {@code values})
     * for the ids {@code insert} accepts, deletes for those {@code delete} accepts, plus one extra
     * row {@code extraId} when not negative.
     */
    private Table upserted(
            LongPredicate insert, LongPredicate delete, BenchmarkRows values, long extraId)
            throws IOException {
        BenchmarkTables tables = new BenchmarkTables(warehouse);
        Table table =
                tables.create(
                        "t",
                        BenchmarkRows.KEYED_SCHEMA,
                        PartitionSpec.unpartitioned(),
                        FileFormat.PARQUET,
                        2);
        GenericLimits.write(table, original, ROWS);

        int idField = table.schema().findField("id").fieldId();
        GenericFileWriterFactory writers =
                new GenericFileWriterFactory.Builder(table)
                        .dataFileFormat(FileFormat.PARQUET)
                        .dataSchema(table.schema())
                        .deleteFileFormat(FileFormat.PARQUET)
                        .equalityFieldIds(new int[] {idField})
                        .equalityDeleteRowSchema(table.schema().select("id"))
                        .build();
        OutputFileFactory files = OutputFileFactory.builderFor(table, 9, 9).build();
        DataWriter<Record> data = writers.newDataWriter(files.newOutputFile(), table.spec(), null);
        EqualityDeleteWriter<Record> deletes =
                writers.newEqualityDeleteWriter(files.newOutputFile(), table.spec(), null);
        Record key = GenericRecord.create(table.schema().select("id"));
        try (data;
                deletes) {
            for (long i = 0; i < UPDATED; i++) {
                long id = i * 4;
                if (insert.test(id)) {
                    data.write(values.record(id));
                }
                if (delete.test(id)) {
                    deletes.write(key.copy("id", id));
                }
            }
            if (extraId >= 0) {
                data.write(values.record(extraId));
            }
        }
        DataFile dataFile = data.toDataFile();
        DeleteFile deleteFile = deletes.toDeleteFile();
        RowDelta upsert = table.newRowDelta().addRows(dataFile).addDeletes(deleteFile);
        upsert.commit();
        return table;
    }
}
