package io.lockchaos.serve;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Opens files of the store so that what was checked is what is read. Checking a path's real location and then opening
 * it by name resolves it twice: a folder swapped for a link to {@code /etc} between the two returned
 * {@code /etc/passwd}. Here every folder on the way is opened relative to the one before it (openat) and nothing on
 * the way follows a link; where the store itself has a link (a run's {@code latest}), it is resolved, kept only when it
 * leads inside the store, and the walk starts over on the path it leads to, which again follows no link.
 */
final class StoreFiles {
    /** Links followed in one request at the most: a chain of links is refused past it. */
    private static final int MAX_LINKS = 8;

    private final Path realRoot;

    /** @param realRoot the store's folder, as a real path (no link in it) */
    StoreFiles(Path realRoot) {
        this.realRoot = realRoot;
    }

    /** A regular file of the store, open for reading, with its size. */
    record Opened(SeekableByteChannel channel, long size) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /**
     * Opens the regular file {@code segments} names below the store, or returns null when there is none inside the
     * store (it does not exist, is not a regular file, or a link on the way leads out).
     *
     * @param segments path segments, none empty, {@code .} or {@code ..} (the caller refuses those)
     */
    Opened open(List<String> segments) throws IOException {
        List<String> path = new ArrayList<>(segments);
        for (int links = 0; links <= MAX_LINKS; links++) {
            Walk w = walk(path);
            if (w.opened != null || w.link < 0) {
                return w.opened;
            }
            // resolve the link where it stands, then walk again to where it leads, following nothing
            Path at = realRoot;
            for (String s : path.subList(0, w.link + 1)) {
                at = at.resolve(s);
            }
            Path real;
            try {
                real = at.toRealPath();
            } catch (IOException e) {
                return null; // dangling
            }
            if (!real.startsWith(realRoot) || real.equals(realRoot)) {
                return null;
            }
            List<String> next = new ArrayList<>();
            realRoot.relativize(real).forEach(p -> next.add(p.toString()));
            next.addAll(path.subList(w.link + 1, path.size()));
            path = next;
        }
        return null;
    }

    /** Reads a whole small file of the store named by its absolute path below the root, or returns null. */
    byte[] read(Path file, int limit) {
        Path rel;
        try {
            rel = realRoot.relativize(file.toAbsolutePath().normalize());
        } catch (IllegalArgumentException e) {
            return null;
        }
        List<String> segments = new ArrayList<>();
        rel.forEach(p -> segments.add(p.toString()));
        if (segments.isEmpty() || segments.contains("..") || segments.contains("")) {
            return null;
        }
        try (Opened o = open(segments)) {
            if (o == null || o.size() > limit) {
                return null;
            }
            return java.nio.channels.Channels.newInputStream(o.channel()).readNBytes(limit);
        } catch (IOException e) {
            return null;
        }
    }

    /** Where a walk ended: an opened file, or the index of the segment that is a link, or neither (-1, null). */
    private record Walk(Opened opened, int link) {
    }

    private Walk walk(List<String> path) throws IOException {
        List<SecureDirectoryStream<Path>> open = new ArrayList<>();
        try {
            DirectoryStream<Path> top = Files.newDirectoryStream(realRoot);
            if (!(top instanceof SecureDirectoryStream<Path> dir)) {
                top.close();
                throw new IOException("this system cannot open a folder's files relative to it; nothing is served");
            }
            open.add(dir);
            for (int i = 0; i < path.size(); i++) {
                Path name = Path.of(path.get(i));
                BasicFileAttributes a;
                try {
                    a = dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                            .readAttributes();
                } catch (IOException e) {
                    return new Walk(null, -1);
                }
                if (a.isSymbolicLink()) {
                    return new Walk(null, i);
                }
                if (i == path.size() - 1) {
                    if (!a.isRegularFile()) {
                        return new Walk(null, -1);
                    }
                    SeekableByteChannel ch = dir.newByteChannel(name, Set.of(StandardOpenOption.READ,
                            LinkOption.NOFOLLOW_LINKS));
                    return new Walk(new Opened(ch, ch.size()), -1);
                }
                if (!a.isDirectory()) {
                    return new Walk(null, -1);
                }
                // a folder swapped for a link since the look above makes this fail: NOFOLLOW_LINKS, relative to dir
                dir = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                open.add(dir);
            }
            return new Walk(null, -1);
        } catch (java.nio.file.FileSystemException e) {
            return new Walk(null, -1); // swapped for a link or removed while walking: nothing is served
        } finally {
            for (SecureDirectoryStream<Path> d : open) {
                d.close();
            }
        }
    }
}
