package dev.icebergflink.table.dml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The byte form of {@link DmlWriteResult}: a round trip keeps every file and location, and version
 * 1 stays readable (golden bytes under {@code src/test/resources/golden/dml-write-result-v1.bin};
 * write them once with {@code -Dgolden.regenerate=true}, only for a new version).
 */
class DmlWriteResultSerializerTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.optional(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "category", Types.StringType.get()));
    private static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("category").withSpecId(1).build();
    private static final String TABLE = "s3://bucket/warehouse/db/t";
    private static final DmlWriteResultSerializer SERIALIZER =
            new DmlWriteResultSerializer(TableMetadataLookup.ofSpecs(Map.of(1, SPEC)));

    private static DataFile dataFile(String name) {
        return DataFiles.builder(SPEC)
                .withPath(TABLE + "/data/category=a/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(1024L)
                .withRecordCount(3L)
                .withPartitionPath("category=a")
                .build();
    }

    private static DeleteFile positionDelete() {
        return FileMetadata.deleteFileBuilder(SPEC)
                .ofPositionDeletes()
                .withPath(TABLE + "/data/category=a/deletes.parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(200L)
                .withRecordCount(1L)
                .withPartitionPath("category=a")
                .build();
    }

    private static DeleteFile deletionVector(String name, String dataFile) {
        return FileMetadata.deleteFileBuilder(SPEC)
                .ofPositionDeletes()
                .withPath(TABLE + "/data/category=a/" + name + ".puffin")
                .withFormat(FileFormat.PUFFIN)
                .withFileSizeInBytes(90L)
                .withRecordCount(2L)
                .withPartitionPath("category=a")
                .withReferencedDataFile(dataFile)
                .withContentOffset(4L)
                .withContentSizeInBytes(40L)
                .build();
    }

    private static DmlWriteResult result() {
        String old = TABLE + "/data/category=a/old.parquet";
        return new DmlWriteResult(
                List.of(dataFile("new")),
                List.of(positionDelete(), deletionVector("dv-new", old)),
                List.of(dataFile("old")),
                List.of(deletionVector("dv-old", old)),
                Set.of(old));
    }

    @Test
    void roundTripKeepsEveryFile() throws IOException {
        DmlWriteResult read =
                SERIALIZER.deserialize(SERIALIZER.getVersion(), SERIALIZER.serialize(result()));
        assertThat(read.addedDataFiles())
                .singleElement()
                .satisfies(
                        f -> {
                            assertThat(f.location()).endsWith("new.parquet");
                            assertThat(f.recordCount()).isEqualTo(3L);
                            assertThat(f.partition().get(0, String.class)).isEqualTo("a");
                        });
        assertThat(read.addedDeleteFiles())
                .extracting(DeleteFile::location, DeleteFile::format)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                TABLE + "/data/category=a/deletes.parquet", FileFormat.PARQUET),
                        org.assertj.core.groups.Tuple.tuple(
                                TABLE + "/data/category=a/dv-new.puffin", FileFormat.PUFFIN));
        assertThat(read.addedDeleteFiles().get(1).referencedDataFile())
                .isEqualTo(TABLE + "/data/category=a/old.parquet");
        assertThat(read.removedDataFiles())
                .extracting(DataFile::location)
                .containsExactly(TABLE + "/data/category=a/old.parquet");
        assertThat(read.removedDeleteFiles())
                .extracting(DeleteFile::location)
                .containsExactly(TABLE + "/data/category=a/dv-old.puffin");
        assertThat(read.referencedDataFiles())
                .containsExactly(TABLE + "/data/category=a/old.parquet");
    }

    @Test
    void version1StaysReadable() throws IOException {
        Path golden = Paths.get("src", "test", "resources", "golden", "dml-write-result-v1.bin");
        byte[] bytes = SERIALIZER.serialize(result());
        if (Boolean.getBoolean("golden.regenerate")) {
            Files.createDirectories(golden.getParent());
            Files.write(golden, bytes);
        }
        assertThat(golden).as("golden file (regenerate with -Dgolden.regenerate=true)").exists();
        byte[] stored = Files.readAllBytes(golden);
        assertThat(bytes)
                .as("the byte form changed without a new version; add one and keep reading v1")
                .isEqualTo(stored);
        assertThat(SERIALIZER.deserialize(1, stored).addedDeleteFiles()).hasSize(2);
    }

    @Test
    void unknownVersionIsRefused() {
        assertThatThrownBy(() -> SERIALIZER.deserialize(2, new byte[0]))
                .hasMessageContaining("Unknown version 2");
    }
}
