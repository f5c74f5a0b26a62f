package dev.icebergflink.table.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.TableDistribution;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class PartitionTermsTest {

    private static final String WHAT = "Cannot create 'cat.db.t'";

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(3, "s", Types.StringType.get()),
                    Types.NestedField.optional(4, "d", Types.DateType.get()),
                    Types.NestedField.optional(5, "odd name", Types.StringType.get()),
                    Types.NestedField.optional(
                            6,
                            "nested",
                            Types.StructType.of(
                                    Types.NestedField.optional(7, "x", Types.IntegerType.get()))));

    private static PartitionSpec spec(String partitioning) {
        return PartitionTerms.spec(WHAT, SCHEMA, List.of(), partitioning, Optional.empty());
    }

    @Test
    void everyTransformBuildsItsFieldAndRendersBack() {
        String option =
                "years(d), hours(ts), bucket(16, id), truncate(4, s), s, `odd name`, nested.x";
        PartitionSpec spec = spec(option);
        assertThat(spec.fields())
                .extracting(field -> field.transform().toString())
                .containsExactly(
                        "year",
                        "hour",
                        "bucket[16]",
                        "truncate[4]",
                        "identity",
                        "identity",
                        "identity");
        assertThat(spec.fields())
                .extracting(field -> field.sourceId())
                .containsExactly(4, 2, 1, 3, 3, 5, 7);
        assertThat(PartitionTerms.render(spec, SCHEMA)).contains(option);
        assertThat(spec(PartitionTerms.render(spec, SCHEMA).orElseThrow())).isEqualTo(spec);
        assertThat(PartitionTerms.render(spec("months(ts)"), SCHEMA)).contains("months(ts)");
        assertThat(PartitionTerms.render(spec("days(d)"), SCHEMA)).contains("days(d)");
    }

    @Test
    void spacingAndCaseOfTransformNamesDoNotMatter() {
        assertThat(spec(" BUCKET( 8 ,id ),Days(ts) "))
                .isEqualTo(PartitionSpec.builderFor(SCHEMA).bucket("id", 8).day("ts").build());
        assertThat(spec("  ").isUnpartitioned()).isTrue();
    }

    @Test
    void identityOfTopLevelColumnsShowsAsPartitionKeys() {
        PartitionSpec identity =
                PartitionSpec.builderFor(SCHEMA).identity("s").identity("d").build();
        assertThat(PartitionTerms.render(identity, SCHEMA)).isEmpty();
        assertThat(PartitionTerms.identityKeys(identity, SCHEMA)).contains(List.of("s", "d"));
        PartitionSpec nested = spec("nested.x");
        assertThat(PartitionTerms.identityKeys(nested, SCHEMA)).isEmpty();
        assertThat(PartitionTerms.render(nested, SCHEMA)).contains("nested.x");
        assertThat(PartitionTerms.render(PartitionSpec.unpartitioned(), SCHEMA)).isEmpty();
    }

    @Test
    void distributedByAddsABucketAfterTheIdentityKeys() {
        PartitionSpec spec =
                PartitionTerms.spec(
                        WHAT,
                        SCHEMA,
                        List.of("s"),
                        null,
                        Optional.of(TableDistribution.ofHash(List.of("id"), 8)));
        assertThat(spec)
                .isEqualTo(PartitionSpec.builderFor(SCHEMA).identity("s").bucket("id", 8).build());
        assertThat(
                        PartitionTerms.spec(
                                WHAT,
                                SCHEMA,
                                List.of(),
                                "days(ts)",
                                Optional.of(TableDistribution.ofUnknown(List.of("id"), 4))))
                .isEqualTo(PartitionSpec.builderFor(SCHEMA).day("ts").bucket("id", 4).build());
    }

    @Test
    void badDistributionsSayWhatWorks() {
        assertDistributionRejected(TableDistribution.ofRange(List.of("id"), 4), "RANGE");
        assertDistributionRejected(
                TableDistribution.ofHash(List.of("id", "s"), 4), "names 2 bucket columns");
        assertDistributionRejected(TableDistribution.ofUnknown(4), "names no bucket columns");
        assertDistributionRejected(
                TableDistribution.ofHash(List.of("id"), null), "positive bucket count");
    }

    private static void assertDistributionRejected(TableDistribution distribution, String what) {
        assertThatThrownBy(
                        () ->
                                PartitionTerms.spec(
                                        WHAT, SCHEMA, List.of(), null, Optional.of(distribution)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(WHAT)
                .hasMessageContaining(what)
                .hasMessageContaining("DISTRIBUTED BY HASH(c) INTO N BUCKETS");
    }

    @Test
    void badTermsAreNamed() {
        assertRejected("days(ts), weeks(ts)", "'weeks(ts)'", "unknown transform 'weeks'");
        assertRejected("bucket(id)", "'bucket(id)'", "two arguments");
        assertRejected("days(ts, 3)", "'days(ts, 3)'", "one argument");
        assertRejected("bucket(0, id)", "'bucket(0, id)'", "positive whole number as bucket count");
        assertRejected("truncate(-2, s)", "'truncate(-2, s)'", "as width, got '-2'");
        assertRejected("bucket(x, id)", "'bucket(x, id)'", "got 'x'");
        assertRejected("days(missing)", "'days(missing)'", "does not exist", "[id, ts, s");
        assertRejected("days(s)", "'days(s)'", "column 's' of type string");
        assertRejected("months(ts), days(ts)", "'days(ts)'", "redundant");
        assertRejected("days(ts),, s", "empty term");
        assertRejected("id + 1", "'id + 1'", "not one of the allowed terms");
        assertRejected("days(ts), days(ts)", "days(ts)");
        assertThatThrownBy(
                        () ->
                                PartitionTerms.spec(
                                        WHAT, SCHEMA, List.of("s"), "days(ts)", Optional.empty()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("PARTITIONED BY [s] and option 'partitioning'='days(ts)'");
    }

    private static void assertRejected(String partitioning, String... fragments) {
        assertThatThrownBy(() -> spec(partitioning))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(WHAT)
                .hasMessageContainingAll(fragments);
    }
}
