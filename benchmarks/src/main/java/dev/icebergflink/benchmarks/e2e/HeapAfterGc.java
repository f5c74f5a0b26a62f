package dev.icebergflink.benchmarks.e2e;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The largest heap occupancy right after a garbage collection since the last {@link #reset()}: the
 * memory a run really keeps live, which the peak RSS (the heap the JVM grew to, garbage included)
 * does not tell. Each collection's notification carries the usage of every memory pool after it
 * ({@code GcInfo.getMemoryUsageAfterGc}); the heap pools' usages are summed, and the largest sum is
 * kept.
 *
 * <p>With the parallel collector a young collection leaves the old generation as it was, so a value
 * after a young collection also counts garbage promoted earlier and not yet collected by a full
 * collection; the value is therefore an upper bound of the live heap, as for every JVM the suite
 * runs.
 */
final class HeapAfterGc {

    private static final AtomicLong MAX_BYTES = new AtomicLong(-1);
    private static boolean installed;

    private HeapAfterGc() {}

    /**
     * Starts (or restarts) watching: collects the whole heap once, forgets the collections so far
     * and listens to the JVM's collectors from now on. The full collection (before the measured
     * part, untimed) removes the garbage of the table preparation and the warm-up, which a young
     * collection of the parallel collector would otherwise count for as long as it sits in the old
     * generation, so every run starts from its live heap.
     */
    static void reset() {
        install();
        System.gc();
        MAX_BYTES.set(-1);
    }

    /**
     * The largest heap occupancy after a collection since the last {@link #reset()} in MiB, or -1
     * when no collection ran (or the JVM does not report them).
     */
    static long maxMb() {
        long max = MAX_BYTES.get();
        return max < 0 ? -1 : max / (1024 * 1024);
    }

    private static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        Set<String> heapPools =
                ManagementFactory.getMemoryPoolMXBeans().stream()
                        .filter(pool -> pool.getType() == MemoryType.HEAP)
                        .map(MemoryPoolMXBean::getName)
                        .collect(Collectors.toUnmodifiableSet());
        NotificationListener listener = (notification, handback) -> record(notification, heapPools);
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter) {
                ((NotificationEmitter) collector)
                        .addNotificationListener(
                                listener,
                                notification ->
                                        GarbageCollectionNotificationInfo
                                                .GARBAGE_COLLECTION_NOTIFICATION
                                                .equals(notification.getType()),
                                null);
            }
        }
    }

    private static void record(Notification notification, Set<String> heapPools) {
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool :
                info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        long heapUsed = used;
        MAX_BYTES.accumulateAndGet(heapUsed, Math::max);
    }
}
