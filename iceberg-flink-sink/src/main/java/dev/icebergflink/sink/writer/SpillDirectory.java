package dev.icebergflink.sink.writer;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.InitContext;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses where a writer subtask spills the keys of a batch upsert: the directory the user set
 * ({@code upsert-spill-directory}), else one of the temporary directories of the TaskManager it
 * runs on (Flink's {@code io.tmp.dirs}, where Flink spills its own sort and hash data).
 *
 * <p>It exists because the TaskManager's directories, not the JVM's {@code java.io.tmpdir}, are
 * what operators provision for spilling (large local disks, YARN's container directories, a
 * Kubernetes volume), and Sink V2 hands a writer no public access to them. The TaskManager's
 * directories are read from the runtime context behind Flink's writer init context (the same {@code
 * TaskManagerRuntimeInfo#getTmpDirectories} Flink's own spilling uses); when a context does not
 * offer it (a future Flink, a test harness), from the TaskManager's configuration file ({@code
 * $FLINK_CONF_DIR}) through {@link ConfigurationUtils#parseTempDirectories}, which falls back to
 * {@code java.io.tmpdir}. With several directories, subtasks take them in turn, as Flink spreads
 * its spill files.
 */
@Internal
public final class SpillDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(SpillDirectory.class);

    private SpillDirectory() {}

    /**
     * The spill directory of a writer subtask.
     *
     * @param configured the directory the user set, or {@code null}
     * @param context the writer's init context, to reach its TaskManager
     * @param subtask the writer's subtask index, to choose among several directories
     */
    public static String resolve(String configured, InitContext context, int subtask) {
        if (configured != null) {
            return configured;
        }
        String[] directories = taskManagerDirectories(context);
        return directories[Math.floorMod(subtask, directories.length)];
    }

    /** The TaskManager's temporary directories (never empty). */
    static String[] taskManagerDirectories(InitContext context) {
        String[] fromRuntime = fromRuntimeContext(context);
        if (fromRuntime != null && fromRuntime.length > 0) {
            return fromRuntime;
        }
        return ConfigurationUtils.parseTempDirectories(GlobalConfiguration.loadConfiguration());
    }

    private static String[] fromRuntimeContext(InitContext context) {
        try {
            Method getter = findRuntimeContextGetter(context.getClass());
            if (getter == null) {
                return null;
            }
            getter.setAccessible(true);
            Object runtimeContext = getter.invoke(context);
            if (runtimeContext instanceof StreamingRuntimeContext streaming) {
                String[] directories = streaming.getTaskManagerRuntimeInfo().getTmpDirectories();
                return directories == null ? null : Arrays.copyOf(directories, directories.length);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug(
                    "The writer context offers no TaskManager directories; using the"
                            + " configuration file's io.tmp.dirs",
                    e);
        }
        return null;
    }

    private static Method findRuntimeContextGetter(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (method.getName().equals("getRuntimeContext")
                        && method.getParameterCount() == 0) {
                    return method;
                }
            }
        }
        return null;
    }
}
