package dev.icebergflink.table.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Collects every line (all levels, with the text of any exception logged with it) that some log4j
 * loggers write while it is open, so that a test can check what a log would show, such as that no
 * secret appears.
 */
public final class TestingLogCapture extends AbstractAppender implements AutoCloseable {

    private final List<Logger> loggers = new ArrayList<>();
    private final List<Level> previousLevels = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();

    private TestingLogCapture() {
        super("testing-capture-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
    }

    /** Starts capturing everything the loggers {@code names} (and their children) write. */
    public static TestingLogCapture everything(String... names) {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        TestingLogCapture capture = new TestingLogCapture();
        capture.start();
        for (String name : names) {
            Logger logger = context.getLogger(name);
            capture.loggers.add(logger);
            capture.previousLevels.add(logger.getLevel());
            logger.addAppender(capture);
            logger.setLevel(Level.ALL);
        }
        return capture;
    }

    @Override
    public void append(LogEvent event) {
        StringBuilder line = new StringBuilder(event.getMessage().getFormattedMessage());
        if (event.getThrown() != null) {
            StringWriter trace = new StringWriter();
            event.getThrown().printStackTrace(new PrintWriter(trace));
            line.append('\n').append(trace);
        }
        synchronized (lines) {
            lines.add(line.toString());
        }
    }

    /** The lines captured so far. */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).removeAppender(this);
            loggers.get(i).setLevel(previousLevels.get(i));
        }
        stop();
    }
}
