package dev.icebergflink.sink;

import dev.icebergflink.TableLoader;
import dev.icebergflink.options.ConnectorOption;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Table maintenance that the sink runs after its own commits ({@code compaction-enabled}, {@code
 * flink-maintenance.*}): the seam between the sink and the maintenance module.
 *
 * <p>The sink cannot depend on the maintenance module (maintenance sits above the engines), so the
 * maintenance module provides this interface through {@link ServiceLoader} and the sink finds it on
 * the class path. Without the module, a sink asked for maintenance fails at build time saying which
 * module to add.
 */
@Internal
public interface PostCommitMaintenance {

    /** The prefix of every maintenance setting. */
    String PREFIX = "flink-maintenance.";

    /** The maintenance module's provider on the class path, if the module is there. */
    static Optional<PostCommitMaintenance> provider() {
        Iterator<PostCommitMaintenance> providers =
                ServiceLoader.load(
                                PostCommitMaintenance.class,
                                PostCommitMaintenance.class.getClassLoader())
                        .iterator();
        return providers.hasNext() ? Optional.of(providers.next()) : Optional.empty();
    }

    /** The settings the provider accepts besides the sink's own enable options. */
    List<ConnectorOption<?>> options();

    /**
     * Checks maintenance settings at build time.
     *
     * @param settings every {@value #PREFIX} key (and {@code compaction-enabled}) from the sink's
     *     options over the Flink configuration
     * @throws IllegalArgumentException naming the setting at fault and what is allowed
     */
    void validate(Map<String, String> settings);

    /**
     * Adds the maintenance of the sink's table after its committer.
     *
     * @param committedCheckpoints the ids of the checkpoints whose data the sink has committed, as
     *     they are committed
     * @param tableLoader the sink's table
     * @param settings the validated settings
     * @param uidSuffix the sink's uid suffix, for the maintenance operators' uids; null when the
     *     sink leaves its operators' uids to Flink (then the maintenance operators get none either:
     *     Flink rejects uids inside a sink without one)
     */
    void addAfterCommits(
            DataStream<Long> committedCheckpoints,
            TableLoader tableLoader,
            Map<String, String> settings,
            String uidSuffix);
}
