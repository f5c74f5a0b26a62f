package dev.icebergflink.maintenance.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.maintenance.api.TableChange;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When a task is due: any threshold reached, or its interval passed. */
class TaskTriggerTest {

    private static TaskTrigger onlyCommits(int commits) {
        return new TaskTrigger(commits, null, null, null, null, null, null, null);
    }

    @Test
    void aThresholdFiresWhenTheSumReachesIt() {
        TaskTrigger trigger = onlyCommits(3);
        TableChange two = TableChange.builder().commitCount(2).build();
        assertThat(trigger.isDue(two, 0, 0)).isFalse();
        assertThat(trigger.isDue(two.merge(TableChange.builder().commitCount(1).build()), 0, 0))
                .isTrue();
    }

    @Test
    void everyKindOfThresholdCounts() {
        TableChange change =
                TableChange.builder()
                        .dataFileCount(5)
                        .dataFileSizeInBytes(500)
                        .posDeleteFileCount(2)
                        .posDeleteRecordCount(20)
                        .eqDeleteFileCount(3)
                        .eqDeleteRecordCount(30)
                        .build();
        assertThat(new TaskTrigger(null, 5, null, null, null, null, null, null).isDue(change, 0, 0))
                .isTrue();
        assertThat(
                        new TaskTrigger(null, null, 501L, null, null, null, null, null)
                                .isDue(change, 0, 0))
                .isFalse();
        assertThat(new TaskTrigger(null, null, null, 2, null, null, null, null).isDue(change, 0, 0))
                .isTrue();
        assertThat(
                        new TaskTrigger(null, null, null, null, 21L, null, null, null)
                                .isDue(change, 0, 0))
                .isFalse();
        assertThat(new TaskTrigger(null, null, null, null, null, 3, null, null).isDue(change, 0, 0))
                .isTrue();
        assertThat(
                        new TaskTrigger(null, null, null, null, null, null, 30L, null)
                                .isDue(change, 0, 0))
                .isTrue();
    }

    @Test
    void theIntervalCountsFromTheLastRun() {
        TaskTrigger trigger =
                new TaskTrigger(null, null, null, null, null, null, null, Duration.ofSeconds(10));
        assertThat(trigger.isDue(TableChange.empty(), 1_000, 10_999)).isFalse();
        assertThat(trigger.isDue(TableChange.empty(), 1_000, 11_000)).isTrue();
        assertThat(trigger.intervalDeadline(1_000)).isEqualTo(11_000);
        assertThat(onlyCommits(1).intervalDeadline(1_000)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aTriggerWithoutThresholdsIsNotSet() {
        assertThat(new TaskTrigger(null, null, null, null, null, null, null, null).isSet())
                .isFalse();
        assertThat(onlyCommits(1).isSet()).isTrue();
    }
}
