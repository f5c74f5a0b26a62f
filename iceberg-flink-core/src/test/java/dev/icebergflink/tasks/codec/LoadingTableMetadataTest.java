package dev.icebergflink.tasks.codec;

import static dev.icebergflink.tasks.codec.ContentFileCodecTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadingTableMetadataTest {

    @TempDir Path dir;

    @Test
    void findsSchemasAndSpecsCreatedAfterTheFirstLoad() {
        String location = dir.resolve("t").toString();
        Table table =
                new HadoopTables(new Configuration())
                        .create(SCHEMA, PartitionSpec.unpartitioned(), location);
        LoadingTableMetadata metadata =
                new LoadingTableMetadata(TableLoader.fromHadoopTable(location));
        assertThat(metadata.spec(0).isUnpartitioned()).isTrue();

        table.updateSpec().addField("data").commit();
        table.updateSchema().addColumn("extra", Types.IntegerType.get()).commit();

        assertThat(metadata.spec(1).fields()).hasSize(1);
        assertThat(metadata.specsIncluding(1)).containsKeys(0, 1);
        assertThat(metadata.schema(1).findField("extra")).isNotNull();
        assertThatThrownBy(() -> metadata.spec(7))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("partition spec with id 7");
    }
}
