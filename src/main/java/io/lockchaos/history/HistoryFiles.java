package io.lockchaos.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A history file in either format: which reader a file gets, by the user's choice or by its name. */
public final class HistoryFiles {
    private HistoryFiles() {
    }

    /** The formats a history file may be in; AUTO goes by the file's extension. */
    public enum Format {
        JSONL, EDN, AUTO;

        /** The format {@code file} is read in: this one, or for AUTO, EDN for a {@code .edn} file, else JSONL. */
        public Format of(Path file) {
            return this != AUTO ? this : file.toString().endsWith(".edn") ? EDN : JSONL;
        }
    }

    /**
     * Reads {@code file} in {@code format}.
     *
     * @throws HistoryFormatException naming the file, line and field of what is malformed
     * @throws IOException when it cannot be read (a folder, a missing file, no permission)
     */
    public static History read(Path file, Format format) throws HistoryFormatException, IOException {
        if (Files.isDirectory(file)) {
            throw new IOException(file + ": is a directory, expected a history file");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            // a FIFO or a device never ends (check /dev/zero ran until killed): nothing but a regular file is read
            throw new IOException(file + ": not a regular file (a FIFO, device or socket is never read as a history)");
        }
        return format.of(file) == Format.EDN ? EdnHistory.read(file) : JsonlHistoryReader.read(file);
    }
}
