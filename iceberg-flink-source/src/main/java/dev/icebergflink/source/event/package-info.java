/**
 * The events readers and the enumerator of an Iceberg source send each other, such as {@link
 * dev.icebergflink.source.event.LimitReachedEvent}.
 *
 * <p>They live apart from both sides so that readers and enumerators share the event types without
 * depending on each other; this package imports neither.
 */
package dev.icebergflink.source.event;
