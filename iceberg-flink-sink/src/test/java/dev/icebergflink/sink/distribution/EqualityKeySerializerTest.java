package dev.icebergflink.sink.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.sink.GoldenFiles;
import java.io.IOException;
import java.util.Random;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Flink's serializer contract (via {@link SerializerTestBase}) for fixed and variable key lengths,
 * plus the length prefix, the snapshot's compatibility rule and the errors.
 */
class EqualityKeySerializerTest {

    private static EqualityKey[] keys(int count, int minLength, int maxLength, long seed) {
        Random random = new Random(seed);
        EqualityKey[] keys = new EqualityKey[count];
        for (int i = 0; i < count; i++) {
            byte[] bytes = new byte[minLength + random.nextInt(maxLength - minLength + 1)];
            random.nextBytes(bytes);
            keys[i] = new EqualityKey(bytes);
        }
        return keys;
    }

    @Nested
    class FixedLength extends SerializerTestBase<EqualityKey> {
        @Override
        protected TypeSerializer<EqualityKey> createSerializer() {
            return new EqualityKeySerializer(12);
        }

        @Override
        protected int getLength() {
            return 12;
        }

        @Override
        protected Class<EqualityKey> getTypeClass() {
            return EqualityKey.class;
        }

        @Override
        protected EqualityKey[] getTestData() {
            return keys(20, 12, 12, 1);
        }
    }

    @Nested
    class VariableLength extends SerializerTestBase<EqualityKey> {
        @Override
        protected TypeSerializer<EqualityKey> createSerializer() {
            return new EqualityKeySerializer(-1);
        }

        @Override
        protected int getLength() {
            return -1;
        }

        @Override
        protected Class<EqualityKey> getTypeClass() {
            return EqualityKey.class;
        }

        @Override
        protected EqualityKey[] getTestData() {
            // lengths around the one-byte count limit (127) and far beyond it
            EqualityKey[] keys = keys(20, 0, 300, 2);
            keys[0] = new EqualityKey(new byte[0]);
            keys[1] = new EqualityKey(new byte[127]);
            keys[2] = new EqualityKey(new byte[128]);
            keys[3] = new EqualityKey(new byte[70_000]);
            return keys;
        }
    }

    @Test
    void fixedLengthKeysAreTheBytesAloneAndVariableOnesCarryTheirLength() throws IOException {
        EqualityKey key = new EqualityKey(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        DataOutputSerializer out = new DataOutputSerializer(16);
        new EqualityKeySerializer(8).serialize(key, out);
        assertThat(out.getCopyOfBuffer()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);

        out.clear();
        new EqualityKeySerializer(-1).serialize(key, out);
        assertThat(out.getCopyOfBuffer()).containsExactly(8, 1, 2, 3, 4, 5, 6, 7, 8);

        // 300 = 0b10_0101100: low seven bits with the continuation bit, then the rest
        out.clear();
        new EqualityKeySerializer(-1).serialize(new EqualityKey(new byte[300]), out);
        byte[] bytes = out.getCopyOfBuffer();
        assertThat(bytes).hasSize(302);
        assertThat(bytes[0]).isEqualTo((byte) 0xAC);
        assertThat(bytes[1]).isEqualTo((byte) 0x02);
    }

    @Test
    void aFixedLengthSerializerRejectsKeysOfAnotherLength() {
        assertThatThrownBy(
                        () ->
                                new EqualityKeySerializer(8)
                                        .serialize(
                                                new EqualityKey(new byte[4]),
                                                new DataOutputSerializer(8)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("4 bytes")
                .hasMessageContaining("fixed length 8");
        assertThatThrownBy(() -> new EqualityKeySerializer(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0");
    }

    /**
     * The serializer's snapshot is in every savepoint of an upsert job's de-duplication, and its
     * keys are the keyed state's keys: both byte forms are pinned. Regenerate (only for a NEW
     * version, as a new file) with {@code -Dgolden.regenerate=true} from the module directory.
     */
    @Test
    void snapshotAndKeyBytesMatchTheGoldenFiles() throws IOException {
        DataOutputSerializer snapshot = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(
                snapshot, new EqualityKeySerializer(8).snapshotConfiguration());
        byte[] goldenSnapshot =
                GoldenFiles.assertGolden(
                        "equality-key-serializer-snapshot", 1, snapshot.getCopyOfBuffer());
        assertThat(
                        TypeSerializerSnapshot.<EqualityKey>readVersionedSnapshot(
                                        new DataInputDeserializer(goldenSnapshot),
                                        getClass().getClassLoader())
                                .restoreSerializer())
                .isEqualTo(new EqualityKeySerializer(8));

        EqualityKeySerializer variable = new EqualityKeySerializer(-1);
        EqualityKey key = new EqualityKey(new byte[] {1, 2, 3, 4, 5});
        DataOutputSerializer keyBytes = new DataOutputSerializer(16);
        variable.serialize(key, keyBytes);
        byte[] goldenKey =
                GoldenFiles.assertGolden(
                        "equality-key-variable-length", 1, keyBytes.getCopyOfBuffer());
        assertThat(variable.deserialize(new DataInputDeserializer(goldenKey))).isEqualTo(key);
    }

    @Test
    void snapshotsAreCompatibleOnlyWithTheSameLength() throws IOException {
        TypeSerializerSnapshot<EqualityKey> eight =
                new EqualityKeySerializer(8).snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(16);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, eight);
        TypeSerializerSnapshot<EqualityKey> restored =
                TypeSerializerSnapshot.readVersionedSnapshot(
                        new DataInputDeserializer(out.getCopyOfBuffer()),
                        getClass().getClassLoader());

        assertThat(restored.restoreSerializer()).isEqualTo(new EqualityKeySerializer(8));
        assertThat(
                        new EqualityKeySerializer(8)
                                .snapshotConfiguration()
                                .resolveSchemaCompatibility(restored)
                                .isCompatibleAsIs())
                .isTrue();
        assertThat(
                        new EqualityKeySerializer(-1)
                                .snapshotConfiguration()
                                .resolveSchemaCompatibility(restored)
                                .isIncompatible())
                .isTrue();
    }

    @Test
    void keysAreEqualByTheirBytes() {
        EqualityKey a = new EqualityKey(new byte[] {1, 2});
        EqualityKey b = new EqualityKey(new byte[] {1, 2});
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).hasToString("EqualityKey[0102]");
        assertThat(a).isNotEqualTo(new EqualityKey(new byte[] {1, 2, 0}));
        assertThat(a.hashCode()).isEqualTo(java.util.Arrays.hashCode(new byte[] {1, 2}));
    }
}
