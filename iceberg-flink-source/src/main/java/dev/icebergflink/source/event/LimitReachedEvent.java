package dev.icebergflink.source.event;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Sent by a reader to the enumerator once it emitted {@code limit} rows, so that the enumerator
 * tells every reader that no more splits will come and a limited read ends, also in streaming mode.
 */
@Internal
public final class LimitReachedEvent implements SourceEvent {

    private static final long serialVersionUID = 1L;

    @Override
    public boolean equals(Object other) {
        return other instanceof LimitReachedEvent;
    }

    @Override
    public int hashCode() {
        return LimitReachedEvent.class.hashCode();
    }

    @Override
    public String toString() {
        return "LimitReachedEvent";
    }
}
