package dev.icebergflink.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretMaskingTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "s3.secret-access-key",
                "s3.access-key-id",
                "s3.session-token",
                "jdbc.password",
                "password",
                "token",
                "credential",
                "rest.auth.type",
                "header.Authorization",
                "adls.sas-token.account",
                "fs.azure.sas.fixed.token",
                "fs.s3a.secret.key",
                "fs.azure.account.key.myaccount.dfs.core.windows.net",
                "gcs.oauth2.token",
                "accessKeyId",
                "client.secretKey",
                "hive.metastore.PWD"
            })
    void secretKeysAreRecognised(String key) {
        assertThat(SecretMasking.isSecretKey(key)).isTrue();
        assertThat(SecretMasking.mask(key, "hunter2")).isEqualTo(SecretMasking.MASK);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "warehouse",
                "uri",
                "io-impl",
                "clients",
                "catalog-impl",
                "jdbc.user",
                "s3.endpoint",
                "client.region",
                "cache-enabled"
            })
    void ordinaryKeysAreShown(String key) {
        assertThat(SecretMasking.isSecretKey(key)).isFalse();
        assertThat(SecretMasking.mask(key, "visible")).isEqualTo("visible");
    }

    @Test
    void passwordsInsideUrisAreMasked() {
        assertThat(SecretMasking.maskUri("jdbc:postgresql://bob:hunter2@db:5432/iceberg"))
                .isEqualTo("jdbc:postgresql://bob:******@db:5432/iceberg");
        assertThat(SecretMasking.maskUri("jdbc:mysql://db/x?user=bob&password=hunter2&ssl=true"))
                .isEqualTo("jdbc:mysql://db/x?user=bob&password=******&ssl=true");
        assertThat(SecretMasking.maskUri("https://acct.blob/c?sv=2020&sig=abc123"))
                .isEqualTo("https://acct.blob/c?sv=2020&sig=******");
        assertThat(SecretMasking.maskUri("thrift://metastore:9083"))
                .isEqualTo("thrift://metastore:9083");
        assertThat(SecretMasking.maskUri("hdfs://namenode:8020/warehouse/db/t"))
                .isEqualTo("hdfs://namenode:8020/warehouse/db/t");
        assertThat(SecretMasking.mask("uri", "http://user:hunter2@rest:8181"))
                .isEqualTo("http://user:******@rest:8181");
    }

    @Test
    void maskPropertiesSortsAndMasksWithoutChangingTheInput() {
        Map<String, String> properties = new HashMap<>();
        properties.put("warehouse", "s3://bucket/wh");
        properties.put("s3.secret-access-key", "TOPSECRET");
        properties.put("credential", "client:TOPSECRET2");

        Map<String, String> masked = SecretMasking.maskProperties(properties);

        assertThat(masked)
                .containsExactly(
                        Map.entry("credential", SecretMasking.MASK),
                        Map.entry("s3.secret-access-key", SecretMasking.MASK),
                        Map.entry("warehouse", "s3://bucket/wh"));
        assertThat(properties).containsEntry("s3.secret-access-key", "TOPSECRET");
        assertThat(masked.toString()).doesNotContain("TOPSECRET");
    }

    @Test
    void nullsStayNull() {
        assertThat(SecretMasking.isSecretKey(null)).isFalse();
        assertThat(SecretMasking.mask("password", null)).isNull();
        assertThat(SecretMasking.maskUri(null)).isNull();
        assertThat(SecretMasking.maskProperties(null)).isEmpty();
    }
}
