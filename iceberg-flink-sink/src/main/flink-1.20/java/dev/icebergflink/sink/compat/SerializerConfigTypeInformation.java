package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * A {@link TypeInformation} whose subclasses create their serializer from a {@link
 * SerializerConfig}.
 *
 * <p>It exists because Flink 1.20 declares {@code createSerializer(ExecutionConfig)} abstract (with
 * {@code createSerializer(SerializerConfig)} delegating to it), while Flink 2.x has only the {@code
 * SerializerConfig} variant. Here the {@code ExecutionConfig} variant delegates the other way
 * round.
 */
@Internal
public abstract class SerializerConfigTypeInformation<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract TypeSerializer<T> createSerializer(SerializerConfig config);

    @Override
    @Deprecated
    public TypeSerializer<T> createSerializer(ExecutionConfig config) {
        return createSerializer(config.getSerializerConfig());
    }
}
