package dev.icebergflink.maintenance;

import dev.icebergflink.testing.GenericFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;

/**
 * Hadoop tables in a temporary folder with the schema {@code (id bigint not null, data string, part
 * string not null)} partitioned by {@code part}, plus helpers that write small data and delete
 * files with Iceberg's generic writers and read a table back as sorted {@code "id:data:part"}
 * strings (deletes applied by Iceberg's generic reader, independent of our readers).
 */
final class MaintenanceTables {

    static final Schema SCHEMA =
            new Schema(
                    List.of(
                            Types.NestedField.required(1, "id", Types.LongType.get()),
                            Types.NestedField.optional(2, "data", Types.StringType.get()),
                            Types.NestedField.required(3, "part", Types.StringType.get())),
                    Set.of(1));

    static final PartitionSpec BY_PART = PartitionSpec.builderFor(SCHEMA).identity("part").build();

    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789";

    private MaintenanceTables() {}

    static Table create(Path dir, String name, int formatVersion, FileFormat format) {
        Map<String, String> properties = new HashMap<>();
        properties.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
        properties.put(TableProperties.DEFAULT_FILE_FORMAT, format.name().toLowerCase());
        return new HadoopTables(new Configuration())
                .create(SCHEMA, BY_PART, properties, dir.resolve(name).toUri().toString());
    }

    /** {@code count} records of partition {@code part} with ids from {@code firstId}. */
    static List<Record> records(long firstId, int count, String part, Random random) {
        List<Record> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Record record = GenericRecord.create(SCHEMA);
            record.setField("id", firstId + i);
            StringBuilder data = new StringBuilder();
            for (int c = 0; c < 40; c++) {
                data.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
            }
            record.setField("data", random.nextInt(20) == 0 ? null : data.toString());
            record.setField("part", part);
            records.add(record);
        }
        return records;
    }

    /**
     * Writes and appends {@code filesPerPartition} files of {@code rowsPerFile} rows in each of
     * {@code partitions} partitions ("p0", "p1", ...), one append per file; returns the rows.
     */
    static List<Record> appendSmallFiles(
            Table table, int partitions, int filesPerPartition, int rowsPerFile, long seed) {
        Random random = new Random(seed);
        List<Record> all = new ArrayList<>();
        long nextId = 0;
        for (int f = 0; f < filesPerPartition; f++) {
            for (int p = 0; p < partitions; p++) {
                List<Record> records = records(nextId, rowsPerFile, "p" + p, random);
                nextId += rowsPerFile;
                table.newAppend().appendFile(writeDataFile(table, records)).commit();
                all.addAll(records);
            }
        }
        return all;
    }

    /** Writes one data file of records of one partition, in the table's default format. */
    static DataFile writeDataFile(Table table, List<Record> records) {
        FileFormat format = format(table);
        PartitionKey partition = partitionOf(table, records.get(0));
        DataWriter<Record> writer =
                GenericFileWriters.data(table, format)
                        .newDataWriter(outputFile(table, partition), table.spec(), partition);
        try (writer) {
            records.forEach(writer::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDataFile();
    }

    /** A position-delete file deleting {@code positions} of {@code file}. */
    static DeleteFile writePositionDeletes(Table table, DataFile file, long... positions) {
        PartitionKey partition = new PartitionKey(table.spec(), table.schema());
        partition.set(0, file.partition().get(0, String.class));
        // Table-aware factory: the table's position-delete metrics keep full file_path bounds, so
        // the delete file is known to refer to this one data file.
        PositionDeleteWriter<Record> writer =
                GenericFileWriters.positionDeletes(table, format(table))
                        .newPositionDeleteWriter(
                                outputFile(table, partition), table.spec(), partition);
        try (writer) {
            PositionDelete<Record> delete = PositionDelete.create();
            for (long position : positions) {
                writer.write(delete.set(file.location(), position));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }

    /** A deletion vector (Puffin, format v3) for {@code positions} of {@code file}. */
    static DeleteFile writeDeletionVector(Table table, DataFile file, long... positions) {
        OutputFileFactory files =
                OutputFileFactory.builderFor(table, 1, System.nanoTime())
                        .format(FileFormat.PUFFIN)
                        .build();
        BaseDVFileWriter writer = new BaseDVFileWriter(files, path -> null);
        try (writer) {
            for (long position : positions) {
                writer.delete(file.location(), position, table.spec(), file.partition());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.result().deleteFiles().get(0);
    }

    /** An equality-delete file on {@code id} in partition {@code part}. */
    static DeleteFile writeIdDeletes(Table table, String part, long... ids) {
        Schema idSchema = table.schema().select("id");
        PartitionKey partition = new PartitionKey(table.spec(), table.schema());
        partition.set(0, part);
        EqualityDeleteWriter<Record> writer =
                GenericFileWriters.equalityDeletes(table, format(table), new int[] {1}, idSchema)
                        .newEqualityDeleteWriter(
                                outputFile(table, partition), table.spec(), partition);
        return GenericFileWriters.writeKeys(writer, idSchema, "id", ids);
    }

    static String asString(Record record) {
        return record.getField("id")
                + ":"
                + record.getField("data")
                + ":"
                + record.getField("part");
    }

    static List<String> asStrings(List<Record> records) {
        List<String> rows = new ArrayList<>();
        records.forEach(record -> rows.add(asString(record)));
        rows.sort(null);
        return rows;
    }

    /** The table's current rows, deletes applied, as sorted strings. */
    static List<String> rows(Table table) {
        table.refresh();
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            records.forEach(record -> rows.add(asString(record)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows.sort(null);
        return rows;
    }

    /** The data files of the current snapshot. */
    static List<DataFile> dataFiles(Table table) {
        table.refresh();
        List<DataFile> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** The ids of the rows of one data file, read with Iceberg's generic reader. */
    static Set<Long> idsOf(Table table, DataFile file) {
        Set<Long> ids = new java.util.HashSet<>();
        try (CloseableIterable<Record> records =
                org.apache.iceberg.parquet.Parquet.read(table.io().newInputFile(file.location()))
                        .project(table.schema())
                        .createReaderFunc(
                                fileSchema ->
                                        org.apache.iceberg.data.parquet.GenericParquetReaders
                                                .buildReader(table.schema(), fileSchema))
                        .build()) {
            records.forEach(record -> ids.add((Long) record.getField("id")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ids;
    }

    static String partitionOf(DataFile file) {
        return file.partition().get(0, String.class);
    }

    private static PartitionKey partitionOf(Table table, Record record) {
        PartitionKey key = new PartitionKey(table.spec(), table.schema());
        key.partition(record);
        return key;
    }

    private static EncryptedOutputFile outputFile(Table table, PartitionKey partition) {
        return OutputFileFactory.builderFor(table, 1, System.nanoTime())
                .format(format(table))
                .build()
                .newOutputFile(table.spec(), partition);
    }

    static FileFormat format(Table table) {
        return FileFormat.fromString(
                table.properties()
                        .getOrDefault(
                                TableProperties.DEFAULT_FILE_FORMAT,
                                TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
    }
}
