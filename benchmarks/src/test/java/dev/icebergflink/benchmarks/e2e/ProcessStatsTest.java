package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import sun.misc.Unsafe;

class ProcessStatsTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void resettingThePeakDropsMemoryThatWasReleasedBefore() throws Exception {
        assumeTrue(Files.isReadable(Paths.get("/proc/self/status")), "Linux only");
        // 256 MiB of native memory, touched and freed again (malloc gives such a block back)
        Unsafe unsafe = unsafe();
        long block = 256 * MIB;
        long address = unsafe.allocateMemory(block);
        unsafe.setMemory(address, block, (byte) 1);
        long peakWithBlock = ProcessStats.peakRssMb();
        unsafe.freeMemory(address);

        ProcessStats.resetPeakRss();

        assertThat(peakWithBlock).isGreaterThan(256);
        assertThat(ProcessStats.peakRssMb()).isLessThan(peakWithBlock - 128);
    }

    @Test
    void cpuTimeGrows() {
        long before = ProcessStats.cpuNanos();
        long sum = 0;
        for (int i = 0; i < 50_000_000; i++) {
            sum += i % 7;
        }
        assertThat(sum).isPositive();
        assertThat(ProcessStats.cpuNanos()).isGreaterThan(before);
    }

    private static Unsafe unsafe() throws ReflectiveOperationException {
        Field field = Unsafe.class.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        return (Unsafe) field.get(null);
    }
}
