package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * A {@link TypeInformation} whose subclasses create their serializer from a {@link
 * SerializerConfig}.
 *
 * <p>It exists because Flink 2.x has only {@code createSerializer(SerializerConfig)}, while on
 * Flink 1.20 {@code createSerializer(ExecutionConfig)} is the abstract method. On 2.x this class
 * adds nothing.
 */
@Internal
public abstract class SerializerConfigTypeInformation<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract TypeSerializer<T> createSerializer(SerializerConfig config);
}
