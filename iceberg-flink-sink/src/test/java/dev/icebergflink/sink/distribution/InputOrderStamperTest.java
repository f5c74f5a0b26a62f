package dev.icebergflink.sink.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class InputOrderStamperTest {

    @Test
    void stampsEachRowWithItsInputPositionAndPassesTheRowOn() throws Exception {
        try (var harness = new OneInputStreamOperatorTestHarness<>(new InputOrderStamper())) {
            harness.open();
            GenericRowData first = GenericRowData.of(7L);
            GenericRowData second = GenericRowData.ofKind(RowKind.DELETE, 7L);
            GenericRowData third = GenericRowData.of(3L);
            // timestamps of their own (equal here) are replaced by the position
            harness.processElement(first, 500L);
            harness.processElement(second, 500L);
            harness.processElement(new StreamRecord<>(third));
            List<StreamRecord<RowData>> out =
                    harness.getOutput().stream()
                            .filter(StreamRecord.class::isInstance)
                            .map(e -> (StreamRecord<RowData>) e)
                            .collect(Collectors.toList());
            assertThat(out).extracting(StreamRecord::getTimestamp).containsExactly(0L, 1L, 2L);
            assertThat(out)
                    .extracting(StreamRecord::getValue)
                    .containsExactly(first, second, third);
            assertThat(out.get(1).getValue().getRowKind()).isEqualTo(RowKind.DELETE);
        }
    }
}
