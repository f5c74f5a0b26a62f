package dev.icebergflink.testing.servers;

import java.io.IOException;
import java.io.Writer;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible object store on {@code 127.0.0.1} for tests: s3proxy 4.1.0 with its
 * filesystem backend, run as a child JVM so that its many dependencies stay off the test classpath.
 * Objects are plain files under {@link #basedir()}{@code /<bucket>/<key>}.
 *
 * <p>The jar comes from {@code maven-dependency-plugin:copy} in the module that runs the tests; its
 * path arrives in the system property {@value #JAR_PROPERTY} (set by the surefire/failsafe
 * configuration). Clients use {@link #endpoint()}, {@link #accessKey()}, {@link #secretKey()}, path
 * style access and region {@code us-east-1}; {@link #icebergProperties(String)} gives the
 * properties of Iceberg's {@code S3FileIO} for a catalog whose warehouse is in a bucket.
 */
public final class S3ProxyServerExtension extends ServerExtension {

    /** The system property that holds the path of {@code s3proxy-*-jar-with-dependencies.jar}. */
    public static final String JAR_PROPERTY = "s3proxy.jar";

    /** The region clients must sign for. */
    public static final String REGION = "us-east-1";

    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final String ACCESS_KEY = "s3proxy-test-access";
    private static final String SECRET_KEY = "s3proxy-test-secret";

    private Path directory;
    private Process process;
    private int port;
    private S3Client client;

    @Override
    protected String serverName() {
        return "s3proxy";
    }

    @Override
    protected void doStart() throws Exception {
        Path jar = locateJar();
        directory = Files.createTempDirectory("s3proxy-");
        Path basedir = Files.createDirectories(directory.resolve("data"));
        Path log = directory.resolve("s3proxy.log");
        port = FreePorts.freePort();

        Properties conf = new Properties();
        conf.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + port);
        conf.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        conf.setProperty("s3proxy.identity", ACCESS_KEY);
        conf.setProperty("s3proxy.credential", SECRET_KEY);
        conf.setProperty("jclouds.provider", "filesystem");
        conf.setProperty("jclouds.filesystem.basedir", basedir.toString());
        Path confFile = directory.resolve("s3proxy.conf");
        try (Writer out = Files.newBufferedWriter(confFile, StandardCharsets.UTF_8)) {
            conf.store(out, "s3proxy for tests");
        }

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-jar");
        command.add(jar.toString());
        command.add("--properties");
        command.add(confFile.toString());
        process =
                new ProcessBuilder(command)
                        .directory(directory.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        try {
            ServerSupport.await(
                    "s3proxy on 127.0.0.1:" + port,
                    START_TIMEOUT,
                    () -> !process.isAlive() || answers(port),
                    () -> ServerSupport.tail(log, 40));
            if (!process.isAlive()) {
                throw new IOException(
                        "s3proxy exited with code "
                                + process.exitValue()
                                + " while starting"
                                + ServerSupport.tail(log, 40));
            }
        } catch (IOException e) {
            ServerSupport.stop(process, STOP_GRACE);
            process = null;
            ServerSupport.deleteRecursively(directory);
            throw e;
        }
        client =
                S3Client.builder()
                        .endpointOverride(URI.create(endpoint()))
                        .region(Region.of(REGION))
                        .forcePathStyle(true)
                        .credentialsProvider(
                                StaticCredentialsProvider.create(
                                        AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                        .httpClient(UrlConnectionHttpClient.create())
                        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                        .build();
    }

    @Override
    protected void doStop() throws Exception {
        try {
            if (client != null) {
                client.close();
            }
            ServerSupport.stop(process, STOP_GRACE);
        } finally {
            client = null;
            process = null;
            ServerSupport.deleteRecursively(directory);
            directory = null;
        }
    }

    /** The endpoint, {@code http://127.0.0.1:<port>}. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** The access key id clients sign with. */
    public String accessKey() {
        return ACCESS_KEY;
    }

    /** The secret access key clients sign with. */
    public String secretKey() {
        return SECRET_KEY;
    }

    /** The directory under which s3proxy keeps objects as {@code <bucket>/<key>} files. */
    public Path basedir() {
        requireRunning();
        return directory.resolve("data");
    }

    /** The plain file that holds an object, whether or not it exists. */
    public Path objectFile(String bucket, String key) {
        return basedir().resolve(bucket).resolve(key);
    }

    /** An S3 client of this server, owned by the fixture (do not close it). */
    public S3Client client() {
        requireRunning();
        return client;
    }

    /** Creates a bucket. */
    public void createBucket(String bucket) {
        client().createBucket(request -> request.bucket(bucket));
    }

    /**
     * The properties of Iceberg's {@code S3FileIO} for this server (io-impl, endpoint, path-style
     * access, keys, region and the URL-connection HTTP client), as a mutable map.
     */
    public Map<String, String> fileIoProperties() {
        requireRunning();
        Map<String, String> properties = new HashMap<>();
        properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        properties.put("s3.endpoint", endpoint());
        properties.put("s3.path-style-access", "true");
        properties.put("s3.access-key-id", ACCESS_KEY);
        properties.put("s3.secret-access-key", SECRET_KEY);
        properties.put("client.region", REGION);
        properties.put("http-client.type", "urlconnection");
        return properties;
    }

    /**
     * {@link #fileIoProperties()} plus {@code warehouse=s3://<bucket>/warehouse}: what a catalog
     * needs to keep its tables in {@code bucket} (create the bucket first).
     */
    public Map<String, String> icebergProperties(String bucket) {
        Map<String, String> properties = fileIoProperties();
        properties.put("warehouse", "s3://" + bucket + "/warehouse");
        return properties;
    }

    private static boolean answers(int port) throws IOException {
        HttpURLConnection connection =
                (HttpURLConnection)
                        URI.create("http://127.0.0.1:" + port + "/").toURL().openConnection();
        connection.setConnectTimeout(2_000);
        connection.setReadTimeout(5_000);
        try {
            return connection.getResponseCode() > 0;
        } finally {
            connection.disconnect();
        }
    }

    private static Path locateJar() {
        String configured = System.getProperty(JAR_PROPERTY);
        Path jar =
                configured != null
                        ? Path.of(configured)
                        : Path.of("target", "s3proxy", "s3proxy.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "The s3proxy jar is missing at "
                            + jar
                            + ": run the tests through Maven (maven-dependency-plugin:copy fetches"
                            + " org.gaul:s3proxy:jar-with-dependencies in process-test-resources) or set"
                            + " -D"
                            + JAR_PROPERTY
                            + "=<path to s3proxy-4.1.0-jar-with-dependencies.jar>");
        }
        return jar;
    }
}
