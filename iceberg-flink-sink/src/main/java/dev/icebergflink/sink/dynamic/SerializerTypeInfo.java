package dev.icebergflink.sink.dynamic;

import dev.icebergflink.sink.compat.SerializerConfigTypeInformation;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.util.function.SerializableSupplier;

/**
 * The type information of a dynamic-sink value that has its own serializer.
 *
 * <p>It exists so that the values travelling between the dynamic sink's operators ({@link
 * DynamicRecord}, {@link ResolvedRecord}) go over the network in their own compact, versioned form
 * instead of through Kryo.
 *
 * @param <T> the value type
 */
@Internal
final class SerializerTypeInfo<T> extends SerializerConfigTypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> typeClass;
    private final SerializableSupplier<TypeSerializer<T>> serializer;

    SerializerTypeInfo(Class<T> typeClass, SerializableSupplier<TypeSerializer<T>> serializer) {
        this.typeClass = typeClass;
        this.serializer = serializer;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return typeClass;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer.get();
    }

    @Override
    public String toString() {
        return typeClass.getSimpleName();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SerializerTypeInfo<?> that && typeClass.equals(that.typeClass);
    }

    @Override
    public int hashCode() {
        return Objects.hash(typeClass);
    }

    @Override
    public boolean canEqual(Object other) {
        return other instanceof SerializerTypeInfo;
    }
}
