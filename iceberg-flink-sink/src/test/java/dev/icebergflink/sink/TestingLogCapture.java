package dev.icebergflink.sink;

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
 * Collects the messages one log4j logger writes at WARN or above while it is open, so that a test
 * can assert on warnings (e.g. metric name collisions) without parsing log files.
 */
final class TestingLogCapture extends AbstractAppender implements AutoCloseable {

    private final Logger logger;
    private final Level previousLevel;
    private final List<String> messages = new ArrayList<>();

    private TestingLogCapture(Logger logger) {
        super(
                "testing-capture-" + System.identityHashCode(logger),
                null,
                null,
                true,
                Property.EMPTY_ARRAY);
        this.logger = logger;
        this.previousLevel = logger.getLevel();
    }

    /** Starts capturing WARN and above of the logger {@code name}. */
    static TestingLogCapture warnings(String name) {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        TestingLogCapture capture = new TestingLogCapture(context.getLogger(name));
        capture.start();
        capture.logger.addAppender(capture);
        capture.logger.setLevel(Level.WARN);
        return capture;
    }

    @Override
    public void append(LogEvent event) {
        if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
            synchronized (messages) {
                messages.add(event.getMessage().getFormattedMessage());
            }
        }
    }

    /** The messages captured so far. */
    List<String> messages() {
        synchronized (messages) {
            return List.copyOf(messages);
        }
    }

    @Override
    public void close() {
        logger.removeAppender(this);
        logger.setLevel(previousLevel);
        stop();
    }
}
