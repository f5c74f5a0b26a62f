package dev.icebergflink.table.storage;

import dev.icebergflink.testing.servers.HdfsServerExtension;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** A warehouse on the HDFS of an {@link HdfsServerExtension}, listed with a Hadoop FileSystem. */
final class HdfsWarehouse implements WarehouseStorage {

    private final HdfsServerExtension hdfs;

    HdfsWarehouse(HdfsServerExtension hdfs) {
        this.hdfs = hdfs;
    }

    @Override
    public String warehouse() {
        return hdfs.uri("/warehouse");
    }

    @Override
    public Map<String, String> catalogOptions() {
        return Map.of();
    }

    @Override
    public String scheme() {
        return "hdfs";
    }

    @Override
    public List<String> files(String location) throws IOException {
        FileSystem fs = hdfs.fileSystem();
        List<String> files = new ArrayList<>();
        try {
            RemoteIterator<LocatedFileStatus> listing = fs.listFiles(new Path(location), true);
            while (listing.hasNext()) {
                files.add(listing.next().getPath().toString());
            }
        } catch (FileNotFoundException e) {
            return files;
        }
        return files;
    }
}
