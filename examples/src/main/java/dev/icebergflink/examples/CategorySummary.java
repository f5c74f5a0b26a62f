package dev.icebergflink.examples;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The per-category totals that {@link BatchRead} computes: how many events and how much amount each
 * category holds. A Flink POJO (public fields, no-argument constructor), so it travels between
 * operators without Kryo.
 */
public class CategorySummary {

    /** The category. */
    public String category;

    /** The number of events of the category. */
    public long events;

    /** The sum of the events' amounts; events without an amount add nothing. */
    public BigDecimal amount;

    /** For Flink's POJO serializer. */
    public CategorySummary() {}

    /** A summary of {@code events} events with a total of {@code amount}. */
    public CategorySummary(String category, long events, BigDecimal amount) {
        this.category = category;
        this.events = events;
        this.amount = amount;
    }

    /** The summary of both: same category, events and amounts added. */
    public CategorySummary plus(CategorySummary other) {
        return new CategorySummary(category, events + other.events, amount.add(other.amount));
    }

    /** The line {@link SummaryFileSink} writes: {@code category,events}. */
    public String toCsvLine() {
        return category + "," + events;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CategorySummary that
                && events == that.events
                && Objects.equals(category, that.category)
                && Objects.equals(amount, that.amount);
    }

    @Override
    public int hashCode() {
        return Objects.hash(category, events, amount);
    }

    @Override
    public String toString() {
        return category + ": " + events + " events, amount " + amount;
    }
}
