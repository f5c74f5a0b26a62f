package dev.icebergflink.testing.servers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports on 127.0.0.1 for servers that must be told their port before they start (a Flink cluster's
 * REST and RPC ports, PostgreSQL, S3Proxy, ZooKeeper).
 *
 * <p>A port the kernel hands out for port 0 lies in its ephemeral range, the same range every other
 * process binding port 0 (a Flink blob server, a MiniCluster, an HDFS data node) draws from in the
 * time between our probe and the server's own bind. Seen on a loaded CI machine: the blob server of
 * the very cluster we configured took its REST port first. So the ports come from below the
 * ephemeral range, where no port-0 bind ever lands, and are probed for being free.
 */
public final class FreePorts {

    /** The lowest port we hand out: above the well-known and most registered service ports. */
    private static final int LOWEST = 20_000;

    /** Linux's ephemeral range starts here unless the machine says otherwise. */
    private static final int DEFAULT_EPHEMERAL_START = 32_768;

    private static final int ATTEMPTS = 200;

    private FreePorts() {}

    /** A port that was free on 127.0.0.1 a moment ago and that port-0 binds never receive. */
    public static int freePort() throws IOException {
        return freePortIn(LOWEST, ephemeralRangeStart());
    }

    /** A free port in {@code [low, end)}, probed by binding it. */
    static int freePortIn(int low, int end) throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        for (int i = 0; i < ATTEMPTS; i++) {
            int candidate = ThreadLocalRandom.current().nextInt(low, end);
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(loopback, candidate), 1);
                return candidate;
            } catch (IOException taken) {
                // in use: try another
            }
        }
        throw new IOException(
                "No free port on 127.0.0.1 between "
                        + low
                        + " and "
                        + end
                        + " after "
                        + ATTEMPTS
                        + " attempts");
    }

    private static int ephemeralRangeStart() {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        try {
            String[] bounds =
                    Files.readString(range, StandardCharsets.US_ASCII).trim().split("\\s+");
            int start = Integer.parseInt(bounds[0]);
            return start > LOWEST + 1_000 ? start : DEFAULT_EPHEMERAL_START;
        } catch (IOException | RuntimeException notLinux) {
            return DEFAULT_EPHEMERAL_START;
        }
    }
}
