package dev.icebergflink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.icebergflink.sink.WriteRuleViolation.Rule;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class WriteModeRulesTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.optional(3, "day", Types.StringType.get()));

    private static Rule broken(Runnable check) {
        return catchThrowableOfType(WriteRuleViolation.class, check::run).rule();
    }

    @Test
    void modesThatExcludeEachOtherNameTheirOptions() {
        assertThat(broken(() -> WriteModeRules.checkModes(true, true, false, false, false)))
                .isEqualTo(Rule.OVERWRITE_WITH_UPSERT);
        assertThat(broken(() -> WriteModeRules.checkModes(false, true, false, true, false)))
                .isEqualTo(Rule.INSERT_ONLY_WITH_UPSERT);
        assertThat(broken(() -> WriteModeRules.checkModes(false, false, true, false, false)))
                .isEqualTo(Rule.UNIQUE_KEYS_WITHOUT_UPSERT);
        assertThat(broken(() -> WriteModeRules.checkModes(false, false, false, false, true)))
                .isEqualTo(Rule.STATIC_PARTITION_WITHOUT_OVERWRITE);
        assertThatThrownBy(() -> WriteModeRules.checkModes(true, true, false, false, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'overwrite-enabled'")
                .hasMessageContaining("'upsert-enabled'");
        WriteModeRules.checkModes(true, false, false, true, true);
        WriteModeRules.checkModes(false, true, true, false, false);
    }

    @Test
    void upsertNeedsFormatV2AndEqualityFields() {
        WriteRuleViolation v1 =
                catchThrowableOfType(
                        WriteRuleViolation.class,
                        () ->
                                WriteModeRules.checkUpsert(
                                        1, SCHEMA, PartitionSpec.unpartitioned(), List.of(1)));
        assertThat(v1.rule()).isEqualTo(Rule.UPSERT_NEEDS_FORMAT_V2);
        assertThat(v1.formatVersion()).isEqualTo(1);
        assertThat(v1).hasMessageContaining("format v1");
        assertThat(
                        broken(
                                () ->
                                        WriteModeRules.checkUpsert(
                                                2,
                                                SCHEMA,
                                                PartitionSpec.unpartitioned(),
                                                List.of())))
                .isEqualTo(Rule.UPSERT_NEEDS_EQUALITY_FIELDS);
    }

    @Test
    void upsertPartitionColumnsMustBeEqualityFields() {
        PartitionSpec spec =
                PartitionSpec.builderFor(SCHEMA).identity("day").bucket("data", 4).build();
        WriteRuleViolation outside =
                catchThrowableOfType(
                        WriteRuleViolation.class,
                        () -> WriteModeRules.checkUpsert(2, SCHEMA, spec, List.of(1)));
        assertThat(outside.rule()).isEqualTo(Rule.UPSERT_PARTITION_OUTSIDE_KEY);
        assertThat(outside.columnsOutsideKey()).containsExactly("day", "data");
        assertThat(outside.keyColumns()).containsExactly("id");
        assertThat(outside)
                .hasMessageContaining("partition field 'day'")
                .hasMessageContaining("[id]");
        WriteModeRules.checkUpsert(2, SCHEMA, spec, List.of(1, 2, 3));
    }
}
