package dev.icebergflink.table.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.iceberg.MetadataTableType;
import org.junit.jupiter.api.Test;

class MetadataTableNameTest {

    @Test
    void parsesTableAndType() {
        assertThat(MetadataTableName.parse("orders$snapshots"))
                .contains(new MetadataTableName("orders", MetadataTableType.SNAPSHOTS));
        assertThat(MetadataTableName.parse("a$b$ALL_DATA_FILES"))
                .contains(new MetadataTableName("a$b", MetadataTableType.ALL_DATA_FILES));
        assertThat(new MetadataTableName("t", MetadataTableType.METADATA_LOG_ENTRIES).objectName())
                .isEqualTo("t$metadata_log_entries");
        assertThat(MetadataTableName.parse("orders")).isEmpty();
        assertThat(MetadataTableName.parse("$snapshots")).isEmpty();
        assertThat(MetadataTableName.parse("orders$")).isEmpty();
        assertThatThrownBy(() -> MetadataTableName.parse("orders$snapshot"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'snapshot' is not one of")
                .hasMessageContaining("snapshots");
    }
}
