package dev.icebergflink.examples;

import dev.icebergflink.examples.compat.WriterInitContextSink;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Writes the per-category summary of a bounded job to one file, lines {@code category,events}
 * sorted by category, when the input ends.
 *
 * <p>It exists so that {@link BatchRead} can hand its result to whoever starts it even where {@code
 * collect()} is impossible (a job submitted through the REST API). Run it with parallelism 1; the
 * file is written through Flink's file systems (a local path names a file on the TaskManager's
 * machine), first under a temporary name and then renamed, so a reader sees either no file or the
 * whole summary.
 */
public final class SummaryFileSink implements WriterInitContextSink<CategorySummary> {

    private static final long serialVersionUID = 1L;

    private final String path;

    /** A sink that writes to {@code path} (a URI, or a local path that should be absolute). */
    public SummaryFileSink(String path) {
        this.path = path;
    }

    @Override
    public SinkWriter<CategorySummary> createWriter(WriterInitContext context) {
        if (context.getTaskInfo().getNumberOfParallelSubtasks() != 1) {
            throw new IllegalStateException(
                    "The summary file sink writes one file and needs parallelism 1, but runs with "
                            + context.getTaskInfo().getNumberOfParallelSubtasks());
        }
        return new SummaryWriter(new Path(path));
    }

    /** Collects the summaries and writes them at the end of the input. */
    private static final class SummaryWriter implements SinkWriter<CategorySummary> {

        private final Path target;
        private final Map<String, CategorySummary> byCategory = new TreeMap<>();

        SummaryWriter(Path target) {
            this.target = target;
        }

        @Override
        public void write(CategorySummary summary, Context context) {
            byCategory.merge(summary.category, summary, CategorySummary::plus);
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            if (endOfInput) {
                writeFile();
            }
        }

        private void writeFile() throws IOException {
            FileSystem fs = target.getFileSystem();
            Path temporary = new Path(target.getParent(), "." + target.getName() + ".inprogress");
            try (FSDataOutputStream stream = fs.create(temporary, FileSystem.WriteMode.OVERWRITE);
                    java.io.Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8)) {
                for (CategorySummary summary : byCategory.values()) {
                    out.write(summary.toCsvLine());
                    out.write('\n');
                }
            }
            if (fs.exists(target)) {
                fs.delete(target, false);
            }
            if (!fs.rename(temporary, target)) {
                throw new IOException("Could not rename " + temporary + " to " + target);
            }
        }

        @Override
        public void close() {}
    }
}
