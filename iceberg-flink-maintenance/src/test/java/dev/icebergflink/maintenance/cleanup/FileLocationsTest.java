package dev.icebergflink.maintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FileLocationsTest {

    @Test
    void locationsCompareByPathWhateverTheSchemeSpelling() {
        assertThat(FileLocations.key("file:/w/t/data/a.parquet")).isEqualTo("/w/t/data/a.parquet");
        assertThat(FileLocations.key("file:///w/t/data/a.parquet"))
                .isEqualTo("/w/t/data/a.parquet");
        assertThat(FileLocations.key("/w/t//data/a.parquet")).isEqualTo("/w/t/data/a.parquet");
        assertThat(FileLocations.key("hdfs://nn:8020/w/t/data/")).isEqualTo("/w/t/data");
        assertThat(FileLocations.key("s3://bucket/w/t/a b.parquet")).isEqualTo("/w/t/a b.parquet");
    }

    @Test
    void hiddenNamesBelowTheRootAreRecognized() {
        assertThat(FileLocations.isHidden("file:/w/t", "file:/w/t/data/.a.parquet.crc")).isTrue();
        assertThat(FileLocations.isHidden("file:/w/t", "file:/w/t/_tmp/a.parquet")).isTrue();
        assertThat(FileLocations.isHidden("file:/w/t", "file:/w/t/data/_k=1/a.parquet")).isFalse();
        assertThat(FileLocations.isHidden("file:/w/.t", "file:/w/.t/data/a.parquet")).isFalse();
    }
}
